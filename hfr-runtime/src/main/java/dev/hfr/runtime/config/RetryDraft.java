package dev.hfr.runtime.config;

import java.util.EnumSet;

/**
 * Retry values being layered (global file, annotation, tenant, tool); remembers which node set the
 * delays last, so a conflict between layers is reported at the key that caused it.
 */
final class RetryDraft {
  long baseDelayMs;
  long maxDelayMs;
  Jitter jitter;
  int maxAttemptsPerStep;
  int maxRetriesPerTask;
  int maxRetriesPerTenantPerMinute;
  double retryRatio;
  boolean respectRetryAfter;
  EnumSet<RetryCondition> retryOn;
  EnumSet<RetryCondition> neverRetryOn;
  int sameFaultLimit;
  YamlNode baseDelayAt;
  YamlNode maxDelayAt;

  static RetryDraft of(RetrySettings s) {
    RetryDraft d = new RetryDraft();
    d.baseDelayMs = s.baseDelayMs();
    d.maxDelayMs = s.maxDelayMs();
    d.jitter = s.jitter();
    d.maxAttemptsPerStep = s.maxAttemptsPerStep();
    d.maxRetriesPerTask = s.maxRetriesPerTask();
    d.maxRetriesPerTenantPerMinute = s.maxRetriesPerTenantPerMinute();
    d.retryRatio = s.retryRatio();
    d.respectRetryAfter = s.respectRetryAfter();
    d.retryOn = s.retryOn().isEmpty() ? EnumSet.noneOf(RetryCondition.class) : EnumSet.copyOf(s.retryOn());
    d.neverRetryOn = s.neverRetryOn().isEmpty() ? EnumSet.noneOf(RetryCondition.class) : EnumSet.copyOf(s.neverRetryOn());
    d.sameFaultLimit = s.sameFaultLimit();
    return d;
  }

  /** An independent copy, for the next layer. */
  RetryDraft copy() {
    RetryDraft d = of(settingsUnchecked());
    d.baseDelayAt = baseDelayAt;
    d.maxDelayAt = maxDelayAt;
    return d;
  }

  /** The settings; the caller has made sure that base <= max. */
  RetrySettings settingsUnchecked() {
    return new RetrySettings(baseDelayMs, Math.max(baseDelayMs, maxDelayMs), jitter, maxAttemptsPerStep, maxRetriesPerTask,
        maxRetriesPerTenantPerMinute, respectRetryAfter, retryOn, neverRetryOn, sameFaultLimit, retryRatio);
  }
}
