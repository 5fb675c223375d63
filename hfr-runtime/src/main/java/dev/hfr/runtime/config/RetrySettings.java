package dev.hfr.runtime.config;

import dev.hfr.runtime.budget.TenantRetryBudgets;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The {@code hfr.retry} section (paper §5.2).
 *
 * @param baseDelayMs the backoff's base delay d0
 * @param maxDelayMs the backoff's cap
 * @param jitter how delays are drawn
 * @param maxAttemptsPerStep total attempts of one step, the first included (4 = 1 + 3 retries)
 * @param maxRetriesPerTask extra attempts a whole task may spend (B_t)
 * @param maxRetriesPerTenantPerMinute the floor of a tenant's retry budget: retries it may spend per minute
 *     whatever its traffic (B_tenant's floor, a token bucket)
 * @param respectRetryAfter whether a server's Retry-After lengthens the delay
 * @param retryOn the classes (and conditions) that may be retried
 * @param neverRetryOn classes never retried; T7, T8 and T3_write_without_idempotency are always among them
 * @param sameFaultLimit K of §4.3: the same fault class this many times in a row without new evidence stops
 *     retrying before {@code maxAttemptsPerStep} is reached (engine-wide; default 3)
 * @param retryRatio the share of a tenant's retry budget that grows with its traffic: retries per call it made
 *     in the last ten seconds, on top of the floor (1.0: retries at most double the calls)
 */
public record RetrySettings(long baseDelayMs, long maxDelayMs, Jitter jitter, int maxAttemptsPerStep,
    int maxRetriesPerTask, int maxRetriesPerTenantPerMinute, boolean respectRetryAfter,
    Set<RetryCondition> retryOn, Set<RetryCondition> neverRetryOn, int sameFaultLimit, double retryRatio) {

  /** K of §4.3 by default: a third identical fault without new evidence ends retrying. */
  public static final int DEFAULT_SAME_FAULT_LIMIT = 3;

  /** The paper's values, and a retry ratio of 1.0 (the paper's budget is absolute; a busy service spent it in seconds). */
  public static final RetrySettings DEFAULTS = new RetrySettings(200, 2000, Jitter.FULL, 4, 10, 600, true,
      EnumSet.of(RetryCondition.T1, RetryCondition.T2, RetryCondition.T3_READONLY, RetryCondition.T6_AFTER_COMPRESS),
      EnumSet.of(RetryCondition.T7, RetryCondition.T8, RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY));

  /** Settings with the default same-fault limit ({@value #DEFAULT_SAME_FAULT_LIMIT}) and retry ratio. */
  public RetrySettings(long baseDelayMs, long maxDelayMs, Jitter jitter, int maxAttemptsPerStep, int maxRetriesPerTask,
      int maxRetriesPerTenantPerMinute, boolean respectRetryAfter, Set<RetryCondition> retryOn,
      Set<RetryCondition> neverRetryOn) {
    this(baseDelayMs, maxDelayMs, jitter, maxAttemptsPerStep, maxRetriesPerTask, maxRetriesPerTenantPerMinute,
        respectRetryAfter, retryOn, neverRetryOn, DEFAULT_SAME_FAULT_LIMIT);
  }

  /** Settings with the default retry ratio. */
  public RetrySettings(long baseDelayMs, long maxDelayMs, Jitter jitter, int maxAttemptsPerStep, int maxRetriesPerTask,
      int maxRetriesPerTenantPerMinute, boolean respectRetryAfter, Set<RetryCondition> retryOn,
      Set<RetryCondition> neverRetryOn, int sameFaultLimit) {
    this(baseDelayMs, maxDelayMs, jitter, maxAttemptsPerStep, maxRetriesPerTask, maxRetriesPerTenantPerMinute,
        respectRetryAfter, retryOn, neverRetryOn, sameFaultLimit, TenantRetryBudgets.DEFAULT_RATIO);
  }

  public RetrySettings {
    if (sameFaultLimit < 1) {
      throw new IllegalArgumentException("sameFaultLimit must be >= 1, was " + sameFaultLimit);
    }
    if (maxAttemptsPerStep < 1) {
      throw new IllegalArgumentException("maxAttemptsPerStep must be >= 1 (it counts attempts, the first included), was "
          + maxAttemptsPerStep);
    }
    if (baseDelayMs < 0 || maxDelayMs < baseDelayMs) {
      throw new IllegalArgumentException("need 0 <= baseDelayMs <= maxDelayMs, was " + baseDelayMs + " and " + maxDelayMs);
    }
    if (maxRetriesPerTask < 0 || maxRetriesPerTenantPerMinute < 0) {
      throw new IllegalArgumentException("retry budgets must be >= 0");
    }
    if (!(retryRatio >= 0 && retryRatio <= 10)) {
      throw new IllegalArgumentException("retryRatio must be within [0, 10] retries per call, was " + retryRatio);
    }
    Objects.requireNonNull(jitter, "jitter");
    EnumSet<RetryCondition> on = copy(retryOn);
    if (on.contains(RetryCondition.T7) || on.contains(RetryCondition.T8)
        || on.contains(RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY)) {
      throw new IllegalArgumentException("retryOn may not contain T7, T8 or T3_write_without_idempotency: " + on);
    }
    EnumSet<RetryCondition> never = copy(neverRetryOn);
    never.add(RetryCondition.T7);
    never.add(RetryCondition.T8);
    // A write without a key is never resent before its reconcile found it absent: the retry gate's own rule.
    never.add(RetryCondition.T3_WRITE_WITHOUT_IDEMPOTENCY);
    retryOn = Collections.unmodifiableSet(on);
    neverRetryOn = Collections.unmodifiableSet(never);
  }

  private static EnumSet<RetryCondition> copy(Set<RetryCondition> s) {
    Objects.requireNonNull(s, "conditions");
    return s.isEmpty() ? EnumSet.noneOf(RetryCondition.class) : EnumSet.copyOf(s);
  }
}
