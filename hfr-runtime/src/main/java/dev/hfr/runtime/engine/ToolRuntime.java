package dev.hfr.runtime.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.DegradeStep;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.telemetry.ToolMeters;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Everything the engine resolves once per tool descriptor rather than per call: its meters, the breakers
 * and bulkheads of the method and of each ladder rung, and its effective policies per tenant.
 */
final class ToolRuntime {

  private static final Criticality.Level[] LEVELS = Criticality.Level.values();

  final ToolDescriptor tool;
  final ToolMeters meters;
  /** Index 0: the method itself; index i + 1: rung i. {@code null} entries when breakers are off. */
  private final CircuitBreaker[] breakers;
  private final Bulkhead[] bulkheads;
  private final PolicySource policies;
  private final ConcurrentHashMap<String, CallPolicy[]> byTenant = new ConcurrentHashMap<>();

  ToolRuntime(ToolDescriptor tool, HfrMeters meters, CircuitBreakers breakers, Bulkheads bulkheads, PolicySource policies) {
    this.tool = tool;
    this.meters = meters.forTool(tool);
    this.policies = policies;
    List<DegradeStep> ladder = tool.degradeLadder();
    this.breakers = new CircuitBreaker[ladder.size() + 1];
    this.bulkheads = new Bulkhead[ladder.size() + 1];
    for (int i = 0; i <= ladder.size(); i++) {
      String target = i == 0 ? tool.name() : rungTarget(tool, ladder.get(i - 1));
      if (breakers != null) {
        this.breakers[i] = breakers.forTarget(TargetKind.TOOL, target);
        meters.circuitState(target, this.breakers[i], b -> b.state().gaugeValue());
      }
      if (bulkheads != null) {
        this.bulkheads[i] = bulkheads.forTarget(TargetKind.TOOL, target);
      }
    }
  }

  /** The breaker target name of a rung: {@code SimpleClass.targetMethod}. */
  static String rungTarget(ToolDescriptor tool, DegradeStep step) {
    String cls = tool.toolClass();
    return cls.substring(cls.lastIndexOf('.') + 1) + "." + step.target();
  }

  /** The breaker of rung {@code rung} ({@code -1}: the method), or {@code null} when breakers are off. */
  CircuitBreaker breaker(int rung) {
    return breakers[rung + 1];
  }

  /** The bulkhead of rung {@code rung} ({@code -1}: the method), or {@code null} when none is configured. */
  Bulkhead bulkhead(int rung) {
    return bulkheads[rung + 1];
  }

  /** The effective policy for {@code tenant} at {@code criticality}, resolved once and cached. */
  CallPolicy policy(String tenant, Criticality.Level criticality) {
    CallPolicy[] perLevel = byTenant.get(tenant);
    if (perLevel == null) {
      perLevel = byTenant.computeIfAbsent(tenant, t -> new CallPolicy[LEVELS.length]);
    }
    CallPolicy p = perLevel[criticality.ordinal()];
    if (p == null) {
      // A benign race: two threads may resolve the same immutable policy.
      p = policies.policy(tenant, tool, criticality);
      perLevel[criticality.ordinal()] = p;
    }
    return p;
  }
}
