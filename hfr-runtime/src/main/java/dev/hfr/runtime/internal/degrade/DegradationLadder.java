package dev.hfr.runtime.internal.degrade;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.DegradeStep;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import java.util.List;
import java.util.Set;

/**
 * Chooses the next rung of a tool's degradation ladder (§4.4, Table 5). A rung is eligible when it comes
 * after the current one, its level is allowed automatically at the call's criticality, and its target is
 * no riskier than the source. Nothing is eligible after a policy refusal (T8: degrading around a
 * refusal is evasion, not degradation) or for an irreversible (R3) method (no "semantically close"
 * substitute for an irreversible write).
 */
public final class DegradationLadder {

  private DegradationLadder() {}

  /** Answer of {@link #next} when no rung may be taken automatically. */
  public static final int NONE = -1;

  /**
   * The index of the next rung to try after rung {@code current} ({@code -1} = the method itself), or
   * {@link #NONE}. After a context overflow an L1 rung (compressed context, narrower retrieval) is
   * preferred.
   */
  public static int next(ToolDescriptor tool, int current, Fault fault, Set<DegradeLevel> allowedAutomatic) {
    if (fault == Fault.T8 || tool.risk() == Risk.R3) {
      return NONE;
    }
    List<DegradeStep> ladder = tool.degradeLadder();
    int first = NONE;
    for (int i = current + 1; i < ladder.size(); i++) {
      DegradeStep step = ladder.get(i);
      if (!allowedAutomatic.contains(step.level()) || step.targetRisk().compareTo(tool.risk()) > 0) {
        continue;
      }
      if (fault != Fault.T6 || step.level() == DegradeLevel.L1) {
        return i;
      }
      if (first == NONE) {
        first = i;
      }
    }
    return first;
  }

  /**
   * The first rung after {@code current} that exists but needs a human (its level is not allowed
   * automatically), or {@link #NONE}: an escalation names it as the suggested next step.
   */
  public static int blockedByCriticality(ToolDescriptor tool, int current, Fault fault, Set<DegradeLevel> allowedAutomatic) {
    if (fault == Fault.T8 || tool.risk() == Risk.R3) {
      return NONE;
    }
    List<DegradeStep> ladder = tool.degradeLadder();
    for (int i = current + 1; i < ladder.size(); i++) {
      DegradeStep step = ladder.get(i);
      if (!allowedAutomatic.contains(step.level()) && step.targetRisk().compareTo(tool.risk()) <= 0) {
        return i;
      }
    }
    return NONE;
  }

  /** The action that taking {@code step} after {@code fault} amounts to (for decisions and meters). */
  public static Action actionFor(DegradeStep step, Fault fault) {
    if (fault == Fault.T4) {
      return Action.DEGRADE_MODEL;
    }
    if (fault == Fault.T5) {
      return Action.DEGRADE_TOOL;
    }
    switch (step.level()) {
      case L3:
      case L4:
        return Action.DEGRADE_SCOPE;
      default:
        return Action.DEGRADE_TOOL;
    }
  }
}
