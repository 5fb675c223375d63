package dev.hfr.runtime.engine;

import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.approval.ApprovalDecision;
import dev.hfr.runtime.approval.ApprovalGate;
import dev.hfr.runtime.approval.ApprovalRequest;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.verify.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Where the engine meets people: the approval gate before a guarded call, the escalation handler after,
 * and the exception a failed call ends in.
 */
public final class Oversight {

  private final ApprovalGate approval;
  private final EscalationHandler escalation;
  private final boolean stackTraces;

  /** @param stackTraces whether a {@link ToolCallException} records where it was thrown (see {@code Hfr.Builder.stackTraces}) */
  public Oversight(ApprovalGate approval, EscalationHandler escalation, boolean stackTraces) {
    this.approval = Objects.requireNonNull(approval, "approval");
    this.escalation = Objects.requireNonNull(escalation, "escalation");
    this.stackTraces = stackTraces;
  }

  /** The exception that tells the caller the call ended in {@code outcome}. */
  ToolCallException failure(ToolOutcome outcome, Throwable cause) {
    return new ToolCallException(outcome, cause, stackTraces);
  }

  /** Whether the gate approves the call; a failing gate is a denial. */
  boolean approved(Call<?> c) {
    ApprovalDecision d;
    try {
      d = approval.review(new ApprovalRequest(c.task.tenant(), c.task.taskId(), c.step, c.tool.name(), c.risk, c.argsHash()));
    } catch (Exception e) {
      d = null;
    }
    boolean ok = d != null && d.approved();
    c.rt.meters.approval(ok);
    return ok;
  }

  /** Hands the call over with its evidence bundle. */
  void escalate(Call<?> c) throws Exception {
    escalation.escalate(evidence(c));
  }

  private static EvidenceBundle evidence(Call<?> c) {
    Verdict rejection = c.lastRejection;
    String argsHash = c.argsHash();
    return new EvidenceBundle(c.task.tenant(), c.task.taskId(), c.step, c.tool.name(), c.risk, c.criticality, c.fault,
        c.reason, c.attempts, argsHash, c.key, c.ledgerState == null ? null : c.ledgerState.name(),
        c.error == null ? null : c.error.getClass().getName(),
        rejection == null ? null : rejection.reason(), rejection == null ? null : rejection.evidence(),
        c.suggestion, complete(c.decisions(), c.task.taskId(), argsHash));
  }

  /** The call's decisions, each with task id and argument hash (left out while no sink wanted the events). */
  private static List<DecisionEvent> complete(List<DecisionEvent> decisions, String taskId, String argsHash) {
    List<DecisionEvent> complete = new ArrayList<>(decisions.size());
    for (DecisionEvent d : decisions) {
      complete.add(d.complete(taskId, argsHash));
    }
    return complete;
  }
}
