package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.runtime.policy.PolicySource;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.DegradeStep;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.breaker.internal.SharedSuccessCounts;
import dev.hfr.runtime.internal.telemetry.SharedCleanCallCounts;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.telemetry.ToolMeters;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Everything the engine resolves once per tool descriptor rather than per call: its meters, the targets
 * of the method and of each ladder rung, their bulkheads, and per tenant the effective policies and the
 * breakers. Breakers are per tenant and target: one tenant's rate limits (its own API key's quota) must
 * not open the circuit for every other tenant.
 */
final class ToolRuntime {

  private static final Criticality.Level[] LEVELS = Criticality.Level.values();

  final ToolDescriptor tool;
  final ToolMeters meters;
  /** Which of the tool's clean calls read the clock. */
  final TimingSampler timing;
  /**
   * Set (for the engine's lifetime) once an attempt of this tool kept running past its interrupt: its later
   * bounded attempts run on a thread of their own that the caller can abandon ({@link AttemptTimeout#abandonable}).
   */
  volatile boolean ignoresInterrupts;
  /** What the timer runs when an attempt of this tool ignored its interrupt; made once, not per call. */
  final Runnable onIgnoredInterrupt = () -> ignoresInterrupts = true;
  /** The outcome of every clean read of the tool: immutable and always the same, so made once. */
  final ToolOutcome cleanReadOutcome;
  /** Index 0: the method itself; index i + 1: rung i. */
  private final String[] targets;
  private final Bulkhead[] bulkheads;
  private final HfrMeters allMeters;
  private final CircuitBreakers breakerFactory;
  private final PolicySource policies;
  private final TenantRetryBudgets budgets;
  private final ConcurrentHashMap<String, TenantView> tenants = new ConcurrentHashMap<>();
  /** The view returned last, or {@code null}. */
  private TenantView lastView;

  /** What one tenant sees of this tool. */
  static final class TenantView {
    final String tenant;
    final CallPolicy[] policies = new CallPolicy[LEVELS.length];
    /** {@code null} when breakers are off. */
    final CircuitBreaker[] breakers;
    /**
     * The tool's clean calls that the method's breaker counted as successes without its lock: one count for
     * both (the tool's meters and the breaker read it); {@code null} when breakers are off.
     */
    final LongAdder cleanReadsCounted;
    /** The tenant's calls, counted for its retry budget's share ({@code TenantRetryBudgets.calls}); {@code null} when budgets are off. */
    final LongAdder calls;

    TenantView(String tenant, CircuitBreaker[] breakers, LongAdder cleanReadsCounted, LongAdder calls) {
      this.tenant = tenant;
      this.breakers = breakers;
      this.cleanReadsCounted = cleanReadsCounted;
      this.calls = calls;
    }

    /** Counts one call (its first attempt) of the tenant, which earns its retry budget a share. */
    void countCall() {
      if (calls != null) {
        calls.increment();
      }
    }
  }

  ToolRuntime(ToolDescriptor tool, HfrMeters meters, CircuitBreakers breakers, Bulkheads bulkheads, PolicySource policies,
      TimingSampler timing, TenantRetryBudgets budgets) {
    this.tool = tool;
    this.budgets = budgets;
    this.meters = meters.forTool(tool);
    this.timing = timing;
    this.cleanReadOutcome = new ToolOutcome(tool.name(), ToolOutcome.Status.SUCCESS, null, false, false, List.of(), false,
        false, DegradeLevel.L0, 1, Reason.OK.code());
    this.allMeters = meters;
    this.breakerFactory = breakers;
    this.policies = policies;
    List<DegradeStep> ladder = tool.degradeLadder();
    this.targets = new String[ladder.size() + 1];
    this.bulkheads = new Bulkhead[ladder.size() + 1];
    for (int i = 0; i <= ladder.size(); i++) {
      targets[i] = i == 0 ? tool.name() : rungTarget(tool, ladder.get(i - 1));
      if (bulkheads != null) {
        this.bulkheads[i] = bulkheads.forTarget(TargetKind.TOOL, targets[i]);
      }
    }
  }

  /** The target name of a rung: {@code SimpleClass.targetMethod}. */
  static String rungTarget(ToolDescriptor tool, DegradeStep step) {
    String cls = tool.toolClass();
    return cls.substring(cls.lastIndexOf('.') + 1) + "." + step.target();
  }

  /** The view of {@code tenant}, created on the tenant's first call of this tool. */
  TenantView tenant(String tenant) {
    // Most calls repeat the last tenant (every call outside a scope uses the same constant): an identity
    // check skips the map. A plain field is enough: TenantView's fields are final, and a stale read
    // only means a map lookup.
    TenantView last = lastView;
    if (last != null && last.tenant == tenant) {
      return last;
    }
    TenantView v = tenants.get(tenant);
    if (v == null) {
      v = tenants.computeIfAbsent(tenant, this::newView);
    }
    lastView = v;
    return v;
  }

  private TenantView newView(String tenant) {
    LongAdder calls = budgets == null ? null : budgets.calls(tenant);
    if (breakerFactory == null) {
      return new TenantView(tenant, null, null, calls);
    }
    CircuitBreaker[] breakers = new CircuitBreaker[targets.length];
    for (int i = 0; i < targets.length; i++) {
      // The tool's own breaker takes its tenant's or its own configured thresholds; the rungs' the defaults.
      CircuitBreakerConfig preferred = i == 0 ? policies.breakerConfig(tenant, tool) : null;
      breakers[i] = breakerFactory.forTarget(TargetKind.TOOL, tenant + ":" + targets[i], preferred);
      allMeters.circuitState(targets[i], tenant, breakers[i], b -> b.state().gaugeValue());
    }
    LongAdder cleanReadsCounted = SharedCleanCallCounts.newSharedCount(meters);
    SharedSuccessCounts.share(breakers[0], cleanReadsCounted);
    return new TenantView(tenant, breakers, cleanReadsCounted, calls);
  }

  /** The bulkhead of rung {@code rung} ({@code -1}: the method), or {@code null} when none is configured. */
  Bulkhead bulkhead(int rung) {
    return bulkheads[rung + 1];
  }

  /** The effective policy for the tenant of {@code view} at {@code criticality}, resolved once and cached. */
  CallPolicy policy(String tenant, TenantView view, Criticality.Level criticality) {
    CallPolicy p = view.policies[criticality.ordinal()];
    if (p == null) {
      // A benign race: two threads may resolve the same immutable policy.
      p = policies.policy(tenant, tool, criticality);
      view.policies[criticality.ordinal()] = p;
    }
    return p;
  }
}
