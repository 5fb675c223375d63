package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.approval.ApprovalDecision;
import dev.hfr.runtime.approval.ApprovalGate;
import dev.hfr.runtime.approval.ApprovalRequest;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.inbox.internal.ArgumentPreview;
import dev.hfr.runtime.inbox.internal.InboxBook;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.ToolMeters;
import dev.hfr.runtime.verify.Verdict;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;

/**
 * Where the engine meets people: the approval gate before a guarded call, the escalation handler after,
 * and the exception a failed call ends in.
 */
public final class Oversight {

  private final ApprovalGate approval;
  private final EscalationHandler escalation;
  private final boolean stackTraces;
  private final TaskCheckpoints checkpoints;
  /** Where escalations and approval requests wait for a person; {@code null} without an inbox. */
  private final InboxBook inbox;

  /** @param stackTraces whether a {@link ToolCallException} records where it was thrown (see {@code Hfr.Builder.stackTraces}) */
  public Oversight(ApprovalGate approval, EscalationHandler escalation, boolean stackTraces) {
    this(approval, escalation, stackTraces, TaskCheckpoints.NONE);
  }

  /** @param checkpoints where an escalation's checkpoint is saved before the handler hears of it (§5.4) */
  public Oversight(ApprovalGate approval, EscalationHandler escalation, boolean stackTraces, TaskCheckpoints checkpoints) {
    this(approval, escalation, stackTraces, checkpoints, null);
  }

  /**
   * @param approval the application's own gate, or {@code null}: approvals are then asked in {@code inbox} (or, with
   *     neither, denied)
   * @param inbox where escalations are filed for a person (beside the handler), or {@code null}
   */
  public Oversight(ApprovalGate approval, EscalationHandler escalation, boolean stackTraces, TaskCheckpoints checkpoints,
      InboxBook inbox) {
    this.inbox = inbox;
    this.approval = approval != null ? approval : ApprovalGate.denyAll();
    this.inboxApprovals = approval == null && inbox != null;
    this.escalation = Objects.requireNonNull(escalation, "escalation");
    this.stackTraces = stackTraces;
    this.checkpoints = Objects.requireNonNull(checkpoints, "checkpoints");
  }

  /** The exception that tells the caller the call ended in {@code outcome}. */
  ToolCallException failure(ToolOutcome outcome, Throwable cause, boolean writeOutcomeUnknown, Supplier<TaskReport> report) {
    return ToolCallException.of(outcome, cause, writeOutcomeUnknown, report, stackTraces);
  }

  /** Whether approvals are asked in the inbox (no gate of the application's): they never block a thread. */
  private final boolean inboxApprovals;

  boolean inboxApprovals() {
    return inboxApprovals;
  }

  /** The inbox, or {@code null}. */
  InboxBook inbox() {
    return inbox;
  }

  /** The inbox's approval of the write {@code c} is about to send under {@code key}: used once if it is there. */
  InboxBook.ApprovalStatus inboxApproval(Call<?> c, String key) {
    return inbox.approval(c.task().tenant(), c.task().taskId(), c.tool().name(), c.risk(), key, c.argsHash(),
        ArgumentPreview.of(c.tool(), c.invocation));
  }

  /** Whether the gate approves the call; a failing gate is a denial. */
  boolean approved(Call<?> c) {
    ApprovalDecision d;
    try {
      d = approval.review(new ApprovalRequest(c.task().tenant(), c.task().taskId(), c.step, c.tool().name(), c.risk(), c.argsHash()));
    } catch (Exception e) {
      d = null;
    }
    boolean ok = d != null && d.approved();
    c.rt.meters.approval(ok);
    return ok;
  }

  /**
   * {@code verification.human_spot_check_rate}: hands an accepted result to the escalation handler for a
   * human to sample, with probability {@code rate}. The call has succeeded whatever the handler does; a
   * failing handler is counted, never thrown.
   */
  void maybeSpotCheck(Call<?> c, ToolMeters meters) {
    if (sampled(c.policy)) {
      spotCheck(c, meters);
    }
  }

  /** Whether this accepted result is one of the share {@code human_spot_check_rate} a human samples. */
  static boolean sampled(CallPolicy policy) {
    double rate = policy.humanSpotCheckRate();
    return rate > 0 && ThreadLocalRandom.current().nextDouble() < rate;
  }

  /** Hands the accepted result of {@code c} to the escalation handler for a human check. */
  void spotCheck(Call<?> c, ToolMeters meters) {
    c.reason = Reason.HUMAN_SPOT_CHECK;
    c.suggestion = "an accepted result sampled for a human check (verification.human_spot_check_rate "
        + c.policy.humanSpotCheckRate() + "); the call succeeded";
    meters.escalation(Reason.HUMAN_SPOT_CHECK);
    try {
      escalate(null, evidence(c), ArgumentPreview.of(c.tool(), c.invocation));
    } catch (Exception e) {
      meters.escalation(Reason.ESCALATION_FAILED);
    }
  }

  /** Where the tasks' checkpoints are saved. */
  TaskCheckpoints checkpoints() {
    return checkpoints;
  }

  /** Hands the call over with its evidence bundle. */
  void escalate(Call<?> c) throws Exception {
    // a call outside any scope has no task
    escalate(c.explicitTask(), evidence(c), ArgumentPreview.of(c.tool(), c.invocation));
  }

  /**
   * Hands an escalation over: the task's escalation checkpoint is saved first (§5.4), so a run that resumes the
   * task knows it was escalated, then the escalation handler hears of it. The one way every escalation of a task
   * goes, the engine's tool calls' and the adapters' model calls' ({@code Hfr.escalate}).
   *
   * @param task the task the escalated call ran in, or {@code null} outside one (nothing to checkpoint)
   * @throws Exception what the handler threw
   */
  public void escalate(TaskState task, EvidenceBundle evidence) throws Exception {
    escalate(task, evidence, "");
  }

  /** As {@link #escalate(TaskState, EvidenceBundle)}, filed in the inbox with the call's redacted arguments. */
  void escalate(TaskState task, EvidenceBundle evidence, String argsPreview) throws Exception {
    if (task != null) {
      checkpoints.escalated(task, evidence);
    }
    RuntimeException notFiled = null;
    if (inbox != null) {
      try {
        inbox.fileEscalation(evidence, argsPreview);
      } catch (RuntimeException e) {
        notFiled = e; // the handler still hears of it; the call then reports that the inbox did not take it
      }
    }
    escalation.escalate(evidence);
    if (notFiled != null) {
      throw notFiled;
    }
  }

  private static EvidenceBundle evidence(Call<?> c) {
    Verdict rejection = c.lastRejection;
    String argsHash = c.argsHash();
    return new EvidenceBundle(c.task().tenant(), c.task().taskId(), c.step, c.tool().name(), c.risk(), c.criticality(), c.fault,
        c.reason, c.attempts, argsHash, c.key(), c.ledgerState() == null ? null : c.ledgerState().name(),
        c.error == null ? null : c.error.getClass().getName(),
        rejection == null ? null : rejection.reason(), rejection == null ? null : rejection.evidence(),
        c.suggestion, complete(c.decisions(), c.task().taskId(), argsHash));
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
