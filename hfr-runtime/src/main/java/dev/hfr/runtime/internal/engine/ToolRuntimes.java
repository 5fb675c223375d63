package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.PolicySource;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.telemetry.CallTiming;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The per-tool side of the engine: the meters, breakers, bulkheads and effective policies of each tool,
 * resolved on its first call and cached in a {@link ToolRuntime}.
 */
public final class ToolRuntimes {

  private final HfrMeters meters;
  private final CircuitBreakers breakers;
  private final Bulkheads bulkheads;
  private final PolicySource policies;
  private final CallTiming callTiming;
  private final Clock clock;
  /** Where each tenant's calls are counted for its retry budget; {@code null} when budgets are off. */
  private final TenantRetryBudgets budgets;
  private final ConcurrentHashMap<ToolDescriptor, ToolRuntime> runtimes = new ConcurrentHashMap<>();

  /**
   * @param breakers the circuit breakers, or {@code null} when breakers are off
   * @param bulkheads the bulkheads, or {@code null} for none
   * @param callTiming which clean calls are timed
   */
  public ToolRuntimes(HfrMeters meters, CircuitBreakers breakers, Bulkheads bulkheads, PolicySource policies,
      CallTiming callTiming, Clock clock) {
    this(meters, breakers, bulkheads, policies, callTiming, clock, null);
  }

  /**
   * @param budgets the tenants' retry budgets, whose share of calls each call earns; {@code null} when budgets are off
   */
  public ToolRuntimes(HfrMeters meters, CircuitBreakers breakers, Bulkheads bulkheads, PolicySource policies,
      CallTiming callTiming, Clock clock, TenantRetryBudgets budgets) {
    this.budgets = budgets;
    this.meters = Objects.requireNonNull(meters, "meters");
    this.breakers = breakers;
    this.bulkheads = bulkheads;
    this.policies = Objects.requireNonNull(policies, "policies");
    this.callTiming = Objects.requireNonNull(callTiming, "callTiming");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** What is resolved once per descriptor: meters, breakers, policies. */
  ToolRuntime of(ToolDescriptor tool) {
    ToolRuntime rt = runtimes.get(tool);
    return rt != null ? rt : runtimes.computeIfAbsent(tool,
        t -> new ToolRuntime(t, meters, breakers, bulkheads, policies, new TimingSampler(callTiming, clock.nanoTime()), budgets));
  }

  /** All meters (for counting where no tool runtime could be made). */
  HfrMeters meters() {
    return meters;
  }
}
