package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.time.Clock;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.ToolMeters;
import java.util.Optional;

/**
 * RECONCILE (Table 9): asks whether a write with an unknown outcome committed (§4.5's four steps). Found:
 * the write's result is verified like an answer. Absent: the write may be resent (never an R3 one).
 * Unanswerable: escalate — the engine does not guess. An R1 write without a reconcile method is
 * reconciled by resending it under the same key (Table 7).
 *
 * <p>A reconcile query is a read: one that failed transiently (T1, T2, T3 — the lookup service's own 503 or 429)
 * is asked again after a backoff, up to {@value #QUERY_ATTEMPTS} times within the deadline, before the write is
 * escalated. A lookup as faulty as the write it settles would otherwise hand a person every fifth dropped answer.
 */
final class Reconcile {

  private final WriteLedger writes;
  private final DecisionRecorder decisions;
  private final Decide decide;
  private final AttemptTimeout timeouts;
  private final FailureHandling failures;
  private final Clock clock;

  /** How often one reconcile query is asked, the first time included, when it fails transiently. */
  static final int QUERY_ATTEMPTS = 3;

  Reconcile(WriteLedger writes, DecisionRecorder decisions, Decide decide, AttemptTimeout timeouts,
      FailureHandling failures, Clock clock) {
    this.writes = writes;
    this.decisions = decisions;
    this.decide = decide;
    this.timeouts = timeouts;
    this.failures = failures;
    this.clock = clock;
  }

  <R> Next run(Call<R> c) {
    if (c.key() != null && c.ledgerState() == LedgerState.PREPARED) {
      writes.transition(c, LedgerState.UNKNOWN, null);
    }
    if (c.tool().reconcileMethod() == null) {
      if (c.risk() == Risk.R1 && c.key() != null) {
        // The provider deduplicates on the key and answers with the committed result. The record stays
        // UNKNOWN until it answers.
        c.delayNanos = 0L;
        return decide.settle(c, Action.RETRY, Reason.RESEND_SAME_KEY);
      }
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
      // A re-call cannot learn more than the call it repeats: its answer says so, and nothing is sent.
      return decide.settle(c, Action.ESCALATE, c.recall() ? Reason.OUTCOME_UNKNOWN_RECALL : Reason.RECONCILE_UNKNOWN);
    }
    Optional<R> found;
    try {
      found = timeouts.reconcile(c); // never null: an unreadable answer is thrown
    } catch (Exception e) {
      // The query itself failed or ran out of reconcile_timeout_ms: do not guess; the record stays UNKNOWN.
      c.error = e;
      Next again = askAgain(c, e);
      if (again != null) {
        return again;
      }
      c.reconcileQueries = 0;
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
      return decide.settle(c, Action.ESCALATE, Reason.RECONCILE_UNKNOWN);
    }
    c.reconcileQueries = 0;
    if (found.isPresent()) {
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
      c.result = found.get();
      c.hasResult = true;
      c.writeState().resultFromReconcile = true;
      if (c.key() != null) {
        writes.transition(c, LedgerState.RECONCILED_COMMITTED, IdempotencyKeys.resultHash(c.result));
      }
      decisions.record(c, Action.RECONCILE, Reason.RECONCILED_COMMITTED, DecisionRecorder.ENFORCE);
      return Next.to(ControllerState.VERIFY);
    }
    c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.ABSENT);
    if (c.key() != null) {
      writes.transition(c, LedgerState.RECONCILED_ABSENT, null);
    }
    c.history().markReconciledAbsent();
    c.writeState().mayHaveApplied = false;
    decisions.record(c, Action.RECONCILE, Reason.RECONCILED_ABSENT, DecisionRecorder.ENFORCE);
    if (c.risk() == Risk.R3) {
      return decide.settle(c, Action.FAIL, Reason.IRREVERSIBLE);
    }
    return Next.to(ControllerState.CHECK);
  }

  /** The same query once more after a backoff, if it failed transiently and time and tries are left; else {@code null}. */
  private Next askAgain(Call<?> c, Exception e) {
    if (++c.reconcileQueries >= QUERY_ATTEMPTS) {
      return null;
    }
    Classification cls = failures.classify(e, 0L);
    if (cls.fault() != Fault.T1 && cls.fault() != Fault.T2 && cls.fault() != Fault.T3) {
      return null;
    }
    long delay = failures.backoffNanos(c.reconcileQueries, c.policy, cls.retryAfterMillis());
    Deadline deadline = c.deadline();
    if (deadline.bounded() && !deadline.allows(clock.nanoTime(), delay, c.lastLatencyNanos, 0L)) {
      return null;
    }
    return Next.after(ControllerState.RECONCILE, delay);
  }
}
