package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.LedgerState;
import java.util.List;

/**
 * REPLAN, ESCALATE and FAIL (Table 9): the structured failure the caller receives. A write still PREPARED
 * is closed first — FAILED when it provably did not happen, otherwise UNKNOWN for reconciliation. ESCALATE
 * hands the evidence bundle to the escalation handler; REPLAN asks the planner for a new plan.
 */
final class Terminate {

  private final Oversight oversight;
  private final WriteLedger writes;
  private final CallEnd end;

  Terminate(Oversight oversight, WriteLedger writes, CallEnd end) {
    this.oversight = oversight;
    this.writes = writes;
    this.end = end;
  }

  /** The exception that ends the call in terminal state {@code s}. */
  <R> ToolCallException run(Call<R> c, ControllerState s) {
    c.reportBreakerFailure();
    if (c.key() != null && c.ledgerState() == LedgerState.PREPARED && !c.alreadyCommitted() && c.lease() != null) {
      // The last fault proves only that the last attempt did nothing; an earlier one may still have.
      boolean notApplied = c.attempts == 0
          || (!c.mayHaveApplied() && c.fault != null && ActionTable.provesNotApplied(c.fault, c.classification));
      writes.transition(c, notApplied ? LedgerState.FAILED : LedgerState.UNKNOWN, null);
    }
    boolean unknown = c.ledgerState() == LedgerState.UNKNOWN;
    boolean committed = c.ledgerState() != null && c.ledgerState().isCommitted();
    ToolOutcome.Status status = ToolOutcome.Status.FAILED;
    Reason reason = c.reason;
    WriteAnswers answers = c.key() == null ? null : c.task().answers();
    if (s == ControllerState.ESCALATE && answers != null && c.recall() && answers.wasEscalated(c.key())) {
      // The write this call repeats is already with a person: the model's re-call is answered, not escalated again.
      status = ToolOutcome.Status.ESCALATED;
    } else if (s == ControllerState.ESCALATE) {
      c.rt.meters.escalation(reason);
      try {
        oversight.escalate(c);
        status = ToolOutcome.Status.ESCALATED;
        if (answers != null) {
          answers.markEscalated(c.key());
        }
      } catch (Exception e) {
        reason = Reason.ESCALATION_FAILED;
      }
    } else if (s == ControllerState.REPLAN) {
      c.task().requestReplan();
    }
    boolean retryable = !unknown && !committed && c.fault != Fault.T7 && c.fault != Fault.T8 && c.fault != Fault.V1
        && reason != Reason.KEY_IN_USE && reason != Reason.ALREADY_COMMITTED && reason != Reason.OUTCOME_UNKNOWN_RECALL
        && reason != Reason.CLOSED_BY_PERSON && reason != Reason.COMPENSATED;
    ToolOutcome outcome = new ToolOutcome(c.tool().name(), status, c.fault, retryable, c.write() && (unknown || committed),
        c.key() == null ? List.of() : CallEnd.artifactRefs(c), unknown || committed, c.rung >= 0, c.rungLevel(), c.attempts,
        reason.code(), c.personAnswer);
    end.finish(c, outcome, c.write() && (unknown || (committed && c.fault == Fault.V1)));
    // What a scheduler needs to retry well: when the refusal ends, and whether the write may go again under its key.
    boolean resendable = unknown && c.risk() == Risk.R1 && c.key() != null && !committed;
    return oversight.failure(outcome, c.error, unknown || unkeyedWriteMayHaveHappened(c), c.task()::report)
        .withSchedulingHints(c.admitAfterMillis, resendable);
  }

  /** A write without a ledger record (idempotency.enabled: false) whose last attempt proves nothing. */
  private static boolean unkeyedWriteMayHaveHappened(Call<?> c) {
    return c.write() && c.key() == null && c.attempts > 0 && !c.hasResult && c.fault != null && c.fault != Fault.V1
        && !ActionTable.provesNotApplied(c.fault, c.classification) && !c.history().reconciledAbsent();
  }
}
