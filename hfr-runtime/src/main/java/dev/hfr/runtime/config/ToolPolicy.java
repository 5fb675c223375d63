package dev.hfr.runtime.config;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The effective policy of one tool for one tenant: the annotation defaults with the configuration's
 * tenant and tool overrides applied, and the safety rules enforced (an R3 tool is never retried; T7 and
 * T8 are never retried; HIGH criticality never degrades to L3/L4 automatically; an R3 tool needs a human
 * for the levels of {@code require_human_for.irreversible}). Resolved once per (tenant, tool) by
 * {@link HfrConfig#policyFor} and cached.
 *
 * @param tenant the configured tenant whose overrides applied, or {@value HfrConfig#DEFAULT_TENANT}
 * @param tool the tool
 * @param criticality the effective criticality (annotation, or the config's {@code criticality})
 * @param retry the effective retry settings; {@link RetrySpec#NONE} for R3
 * @param jitter how backoff delays are drawn
 * @param respectRetryAfter whether a server's Retry-After lengthens the delay
 * @param qualityFloor the minimum quality a degraded result must reach
 * @param ladder the degradation levels in the order they are tried
 * @param autoDegradeLevels the levels that may run without a human
 * @param humanRequiredLevels the levels that need a human
 * @param verifyLevel the stricter of the annotation's level and the configured one
 * @param humanSpotCheckRate the share of accepted results sampled for a human check
 * @param breaker the circuit breaker settings for this tool
 * @param idempotencyEnabled whether writes go through the ledger
 * @param reconcileTimeoutMs how long one reconcile call may take
 * @param timeoutMs the bound of one attempt ({@code @Timeout}, then {@code timeout_ms} of the tenant, the tool
 *     and the tenant's tool); 0 when nothing bounds it
 * @param adjustments overrides the safety rules refused, as {@code file:line:col key: why}; empty normally
 */
public record ToolPolicy(String tenant, ToolDescriptor tool, Criticality.Level criticality, RetrySpec retry,
    Jitter jitter, boolean respectRetryAfter, double qualityFloor, List<DegradeLevel> ladder,
    Set<DegradeLevel> autoDegradeLevels, Set<DegradeLevel> humanRequiredLevels, VerifyLevel verifyLevel,
    double humanSpotCheckRate, BreakerSettings breaker, boolean idempotencyEnabled, long reconcileTimeoutMs,
    long timeoutMs, List<String> adjustments) {

  public ToolPolicy {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(retry, "retry");
    ladder = List.copyOf(ladder);
    autoDegradeLevels = Collections.unmodifiableSet(copy(autoDegradeLevels));
    humanRequiredLevels = Collections.unmodifiableSet(copy(humanRequiredLevels));
    adjustments = List.copyOf(adjustments);
  }

  private static EnumSet<DegradeLevel> copy(Set<DegradeLevel> s) {
    return s.isEmpty() ? EnumSet.noneOf(DegradeLevel.class) : EnumSet.copyOf(s);
  }

  /** Whether a fault of this class may be retried at all (budgets, deadline and breaker still apply). */
  public boolean retries(Fault fault) {
    return retry.maxAttempts() > 1 && retry.retryOn().contains(fault);
  }

  /** Whether the ladder may climb to {@code level} without a human. */
  public boolean mayDegradeAutomatically(DegradeLevel level) {
    return autoDegradeLevels.contains(level) && !humanRequiredLevels.contains(level);
  }

  /**
   * A T6 (context overflow) is retried only after compression, never resent as is (paper Table 2);
   * always {@code true}, stated here so the engine reads it from the policy rather than assuming it.
   */
  public boolean compressBeforeContextRetry() {
    return true;
  }
}
