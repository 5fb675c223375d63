package dev.hfr.runtime.config;

import java.util.Objects;

/**
 * The budgets and task limits of one tenant: the global values with the tenant's overrides applied.
 *
 * @param tenant the configured tenant, or {@value HfrConfig#DEFAULT_TENANT} for tenants without a section
 * @param maxRetriesPerTask extra attempts one task may spend (B_t)
 * @param maxRetriesPerTenantPerMinute retries the tenant may spend per minute (B_tenant, a token bucket)
 * @param limits the article's task limits
 * @param breaker circuit breaker settings for the tenant's own breaker
 * @param retryRatio retries the tenant may add per call it made in the last ten seconds, on top of the floor
 */
public record TenantPolicy(String tenant, int maxRetriesPerTask, int maxRetriesPerTenantPerMinute,
    TaskLimitSettings limits, BreakerSettings breaker, double retryRatio) {

  public TenantPolicy {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(limits, "limits");
    Objects.requireNonNull(breaker, "breaker");
  }

  /** Model turns per task. */
  public int maxTurns() {
    return limits.maxTurns();
  }

  /** Tool calls per task. */
  public int maxToolCalls() {
    return limits.maxToolCalls();
  }

  /** Calls of one tool in a row before they count as a repeated action. */
  public int maxSameToolCalls() {
    return limits.maxSameToolCalls();
  }

  /** Wall time per task, in milliseconds. */
  public long maxWallTimeMs() {
    return limits.maxWallTimeMs();
  }

  /** Cost units per task; infinite when unlimited. */
  public double maxCost() {
    return limits.maxCost();
  }

  /** Side-effecting calls per task. */
  public int maxWriteActions() {
    return limits.maxWriteActions();
  }
}
