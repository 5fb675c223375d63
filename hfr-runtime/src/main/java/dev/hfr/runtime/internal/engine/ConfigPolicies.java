package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.runtime.policy.PolicySource;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.config.BreakerSettings;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.Jitter;
import dev.hfr.runtime.config.TenantPolicy;
import dev.hfr.runtime.config.ToolPolicy;
import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Policies from an {@link HfrConfig} (the §5.2 YAML with its per-tenant and per-tool overrides; its
 * safety rules already applied): retry settings, quality floor, automatic degradation levels (minus the
 * levels that require a human), verification level and task limits. A task that runs at a higher
 * criticality than the tool's gets the stricter floor, verification level and the narrower automatic
 * levels of the task's.
 */
public final class ConfigPolicies implements PolicySource {

  private final HfrConfig config;
  private final int attemptsOverride;
  /** The task limits of tenants without a section of their own (most tasks): built once. */
  private final TaskLimits defaultTenantLimits;
  /** The task limits of each configured tenant, built when its first task opens (keys: configured tenants only). */
  private final Map<String, TaskLimits> tenantLimits = new ConcurrentHashMap<>();

  /**
   * @param attemptsOverride when positive, every step's attempts are capped at this (the fixed-retry
   *     baseline); 0 keeps the configured attempts
   */
  public ConfigPolicies(HfrConfig config, int attemptsOverride) {
    this.config = Objects.requireNonNull(config, "config");
    this.attemptsOverride = attemptsOverride;
    this.defaultTenantLimits = limitsOf(config.tenant(null));
  }

  @Override
  public CallPolicy policy(String tenant, ToolDescriptor tool, Criticality.Level taskCriticality) {
    ToolPolicy p = config.policyFor(tenant, tool);
    Criticality.Level criticality = Controller.effectiveCriticality(taskCriticality, p.criticality());
    double floor = p.qualityFloor();
    EnumSet<DegradeLevel> allowed = EnumSet.noneOf(DegradeLevel.class);
    for (DegradeLevel level : p.autoDegradeLevels()) {
      if (p.mayDegradeAutomatically(level)) {
        allowed.add(level);
      }
    }
    // degradation.ladder: a level left out of it is never taken automatically.
    allowed.retainAll(p.ladder());
    VerifyLevel verify = p.verifyLevel();
    if (criticality != p.criticality()) {
      floor = Math.max(floor, config.degradation().qualityFloor().get(criticality));
      VerifyLevel forTask = config.verification().levelFor(criticality);
      if (forTask.compareTo(verify) > 0) {
        verify = forTask;
      }
      allowed.retainAll(config.degradation().allowAutoDegrade().get(criticality));
      allowed.removeAll(config.degradation().requireHumanFor().get(criticality));
    }
    RetrySpec retry = DefaultPolicies.overridden(p.retry(), attemptsOverride);
    Set<DegradeLevel> frozen = Collections.unmodifiableSet(allowed);
    return new CallPolicy(retry, criticality, floor, frozen, verify, p.timeoutMs(), p.reconcileTimeoutMs(),
        p.jitter() == Jitter.FULL, p.respectRetryAfter(), p.humanSpotCheckRate());
  }

  @Override
  public TaskLimits taskLimits(String tenant) {
    // Every task open asks: the configuration is immutable, so each tenant's limits are built once.
    TenantPolicy t = config.tenant(tenant);
    if (t == config.tenant(null)) {
      return defaultTenantLimits;
    }
    return tenantLimits.computeIfAbsent(t.tenant(), name -> limitsOf(t));
  }

  private static TaskLimits limitsOf(TenantPolicy t) {
    return TaskLimits.builder()
        .maxTurns(t.maxTurns())
        .maxToolCalls(t.maxToolCalls())
        .maxSameToolCalls(t.maxSameToolCalls())
        .maxRetries(t.maxRetriesPerTask())
        .maxWallTime(Duration.ofMillis(t.maxWallTimeMs()))
        .maxCost(t.maxCost())
        .maxWriteActions(t.maxWriteActions())
        .build();
  }

  /** The tenant retry budgets of the configuration: {@code retry_ratio} and {@code max_retries_per_tenant_per_min}, per tenant. */
  public TenantRetryBudgets tenantBudgets(Clock clock) {
    return tenantBudgets(TenantRetryBudgets.builder(clock));
  }

  /** The per-tenant retry budgets of the configuration, on {@code b} (which may name a fleet-wide token supply). */
  public TenantRetryBudgets tenantBudgets(TenantRetryBudgets.Builder b) {
    b.retriesPerWindow(config.retry().maxRetriesPerTenantPerMinute()).window(Duration.ofMinutes(1))
        .ratio(config.retry().retryRatio());
    for (String tenant : config.configuredTenants()) {
      b.tenant(tenant, config.tenant(tenant).maxRetriesPerTenantPerMinute());
      b.ratio(tenant, config.tenant(tenant).retryRatio());
    }
    return b.build();
  }

  /** The breaker thresholds of the configuration's {@code circuit_breaker} section. */
  public CircuitBreakerConfig breakerDefaults() {
    return breakerConfig(config.circuitBreaker());
  }

  /** A tenant's or a tool's own {@code circuit_breaker} section; {@code null} where the global one applies. */
  @Override
  public CircuitBreakerConfig breakerConfig(String tenant, ToolDescriptor tool) {
    BreakerSettings effective = config.policyFor(tenant, tool).breaker();
    return effective.equals(config.circuitBreaker()) ? null : breakerConfig(effective);
  }

  private static CircuitBreakerConfig breakerConfig(BreakerSettings s) {
    return s.toBreakerConfig();
  }

}
