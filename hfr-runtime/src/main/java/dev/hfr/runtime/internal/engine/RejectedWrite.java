package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CompensationException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.ToolMeters;
import java.util.List;
import java.util.Optional;

/**
 * A write whose result the verifier rejected (V1 of an R1 or R2 write, whose default action is RECONCILE):
 * it is found out before anything is sent again — the paper's "reconcile before retry" (§4.5) — because a
 * rejected answer neither proves the write took effect nor that it did not.
 *
 * <ul>
 *   <li>The tool has a reconcile method: it is asked. Absent: retried with the rejection as new evidence
 *       ({@link Reason#REJECTED_WRITE_ABSENT}). Present: the write took effect with a wrong result.
 *   <li>No reconcile method: the tool's answer is the evidence that it took effect (an R1 write's provider
 *       answered its key).
 *   <li>Took effect: undone by the tool's compensate method (a keyed, audited compensation; the record is
 *       COMPENSATED), then retried under a new key ({@link Reason#REJECTED_WRITE_COMPENSATED}); without a
 *       compensate method it is escalated with the evidence ({@link Reason#REJECTED_WRITE_COMMITTED}).
 * </ul>
 *
 * <p>An R1 write is resent under a new key only once a compensation or a reconcile proved its old one has
 * nothing in place — its provider would answer the old key with the rejected answer. The retry itself still
 * passes the retry gate (budgets, breaker, deadline, same verifier reason); refused, the step falls back as
 * any write that did not happen (a rung, a replan). A rung's write, or one an earlier call committed, is
 * escalated: the reconcile and compensate methods are the method's own.
 */
final class RejectedWrite {

  private final WriteLedger writes;
  private final Decide decide;
  private final AttemptTimeout timeouts;
  private final Compensator compensator;

  RejectedWrite(WriteLedger writes, Decide decide, AttemptTimeout timeouts, Compensator compensator) {
    this.writes = writes;
    this.decide = decide;
    this.timeouts = timeouts;
    this.compensator = compensator;
  }

  /** Finds out whether the rejected write of {@code c} took effect, and retries (through {@code check}) or ends it. */
  <R> Next run(Call<R> c, Check check) {
    if (c.rung >= 0) {
      writes.commitReturned(c);
      return decide.settle(c, Action.ESCALATE, Reason.VERIFICATION_FAILED);
    }
    if (!c.resultFromReconcile() && c.tool().reconcileMethod() != null) {
      if (c.key() != null && c.ledgerState() == LedgerState.PREPARED) {
        writes.transition(c, LedgerState.UNKNOWN, null);
      }
      Optional<R> found;
      try {
        found = timeouts.reconcile(c);
      } catch (Exception e) {
        // The query failed or could not tell: do not guess; the record stays UNKNOWN.
        c.error = e;
        c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
        return decide.settle(c, Action.ESCALATE, Reason.RECONCILE_UNKNOWN);
      }
      if (found.isEmpty()) {
        c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.ABSENT);
        if (c.key() != null) {
          writes.transition(c, LedgerState.RECONCILED_ABSENT, null);
        }
        notInPlace(c);
        c.writeState().freshKey = c.key() != null && c.risk() == Risk.R1;
        return check.retry(c, Reason.REJECTED_WRITE_ABSENT);
      }
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
      if (c.key() != null) {
        writes.transition(c, LedgerState.RECONCILED_COMMITTED, IdempotencyKeys.resultHash(found.get()));
      }
    } else {
      writes.commitReturned(c);
    }
    if (c.key() == null || c.tool().compensateMethod() == null) {
      return decide.settle(c, Action.ESCALATE, Reason.REJECTED_WRITE_COMMITTED);
    }
    try {
      compensator.compensate(c.task().tenant(), c.task().taskId(), c.step, c.tool(), c.invocation, c.key());
    } catch (CompensationException e) {
      c.error = e;
      if (e.reason() == Reason.COMPENSATION_UNKNOWN) {
        // The compensator has escalated its unknown outcome with its own evidence: one person, one bundle.
        return decide.settle(c, Action.FAIL, Reason.COMPENSATION_UNKNOWN);
      }
      return decide.settle(c, Action.ESCALATE, e.reason());
    }
    c.writeState().ledgerState = LedgerState.COMPENSATED;
    notInPlace(c);
    c.writeState().freshKey = true;
    return check.retry(c, Reason.REJECTED_WRITE_COMPENSATED);
  }

  /** An irreversible write whose result was rejected and is escalated: its tool's answer is checkpointed as its commit. */
  void commitAnswered(Call<?> c) {
    writes.commitReturned(c);
  }

  /**
   * Before a write proven not in place is sent again (a retry or a rung): under a new key when it needs one,
   * else its absent record is prepared again. {@code null} to go on; otherwise the decision that ends the call.
   */
  <R> Next prepareAgain(Call<R> c) {
    if (c.key() == null) {
      return null;
    }
    if (c.freshKey()) {
      c.writeState().freshKey = false;
      return rekey(c);
    }
    if (c.ledgerState() == LedgerState.RECONCILED_ABSENT) {
      writes.transition(c, LedgerState.PREPARED, null);
    }
    return null;
  }

  /** The write's next occurrence: its old record proves nothing of it is in place, so the task counts it anew. */
  private <R> Next rekey(Call<R> c) {
    List<Object> args = IdempotencyKeys.arguments(c.tool(), c.invocation);
    WriteClaims.Keyed keyed;
    if (c.explicitTask() != null || ExplicitSteps.current() != null) {
      keyed = writes.key(c.task(), c.tool().name(), args, c.argsHash(), c.step);
    } else {
      // A call outside any task keeps no occurrences of its own: its write's next key is this call's next one.
      keyed = new WriteClaims.Keyed(
          IdempotencyKeys.key(c.task().tenant(), c.task().taskId(), c.tool().name(), args, ++c.writeState().freshKeys), false);
    }
    if (keyed.recall() || keyed.key().equals(c.key())) {
      // A step the agent named has one key (or another call of the task took the next occurrence).
      if (c.ledgerState() == LedgerState.RECONCILED_ABSENT) {
        writes.transition(c, LedgerState.PREPARED, null); // nothing is under the key: it may carry the resend
        return null;
      }
      c.suggestion = "the write was compensated; its step has one key, so doing it again is the business's call";
      return decide.settle(c, Action.ESCALATE, Reason.REJECTED_WRITE_COMPENSATED);
    }
    writes.releaseLease(c);
    WriteState w = c.writeState();
    w.key = keyed.key();
    w.wireKey = null;
    w.recall = false;
    WriteClaims.Claim claim = writes.claim(c);
    w.ledgerState = claim.record().state();
    if (claim.lease() != null) {
      writes.hold(c, claim.lease()); // released when the call ends, whatever happens next
    }
    switch (claim.kind()) {
      case CREATED:
        return null;
      case IN_USE:
        c.error = writes.inUse(claim);
        c.suggestion = c.error.getMessage();
        return decide.settle(c, Action.FAIL, Reason.KEY_IN_USE);
      default:
        // Another call of the task made this very write meanwhile: its record, not a resend, answers it.
        return decide.settle(c, Action.ESCALATE, Reason.ALREADY_COMMITTED);
    }
  }

  /** A reconcile found the write absent, or a compensation undid it: nothing of it is in place. */
  private static void notInPlace(Call<?> c) {
    c.history().markReconciledAbsent();
    c.hasResult = false;
    c.result = null;
    WriteState w = c.writeState();
    w.mayHaveApplied = false;
    w.resultFromReconcile = false;
  }
}
