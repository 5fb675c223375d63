package dev.hfr.junit;

import dev.hfr.annotations.Fault;
import dev.hfr.junit.internal.FaultPlan;
import java.util.List;

/**
 * What the extension injected during the current test, for assertions beside the task report: which
 * physical call of which tool failed with which fault, and how many physical calls each tool received.
 */
public final class InjectedFaults {

  /**
   * One injected fault.
   *
   * @param tool the tool's HFR name
   * @param call the physical call that failed (from 1)
   * @param fault the fault injected
   * @param committedFirst whether the real call ran (and committed) before its answer was dropped
   */
  public record Injection(String tool, int call, Fault fault, boolean committedFirst) {}

  private final FaultPlan plan;

  InjectedFaults(FaultPlan plan) {
    this.plan = plan;
  }

  /** The faults injected so far, in order. */
  public List<Injection> all() {
    return plan.injected().stream().map(i -> new Injection(i.tool(), i.call(), i.fault(), i.committedFirst())).toList();
  }

  /** Physical calls {@code tool} received so far, injected failures included. */
  public int calls(String tool) {
    return plan.calls(tool);
  }
}
