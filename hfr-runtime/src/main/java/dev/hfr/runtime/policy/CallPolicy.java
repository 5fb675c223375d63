package dev.hfr.runtime.policy;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.RetrySpec;
import java.util.Set;

/**
 * The effective policy of one tool for one tenant at one criticality: the annotation defaults with the
 * configuration's overrides applied. Resolved once per (tool, tenant, criticality) and cached.
 *
 * @param retry the retry settings (attempts per step, backoff, retryable classes)
 * @param criticality the criticality the call runs at
 * @param qualityFloor the lowest verified quality accepted
 * @param allowedAutomatic the ladder levels that may be taken without a human
 * @param verifyLevel the verification level of results
 * @param timeoutMs the bound of one attempt in milliseconds; 0 when nothing but the task deadline bounds it
 * @param reconcileTimeoutMs the bound of one reconcile call in milliseconds
 * @param jitter whether backoff delays are drawn with full jitter ({@code retry.jitter: full}) or are the bound itself
 * @param respectRetryAfter whether a server's Retry-After lengthens the delay ({@code retry.respect_retry_after})
 * @param humanSpotCheckRate the share of accepted results also handed to the escalation handler for a human
 *     to sample, in [0, 1]
 */
public record CallPolicy(
    RetrySpec retry,
    Criticality.Level criticality,
    double qualityFloor,
    Set<DegradeLevel> allowedAutomatic,
    VerifyLevel verifyLevel,
    long timeoutMs,
    long reconcileTimeoutMs,
    boolean jitter,
    boolean respectRetryAfter,
    double humanSpotCheckRate) {

  /** A reconcile call's bound when nothing configures one: the paper's {@code reconcile_timeout_ms}. */
  public static final long DEFAULT_RECONCILE_TIMEOUT_MS = 1500;
}
