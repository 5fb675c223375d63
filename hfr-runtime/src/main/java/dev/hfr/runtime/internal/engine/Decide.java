package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.internal.degrade.DegradationLadder;
import dev.hfr.runtime.ledger.LedgerState;

/**
 * DECIDE (Table 9): settles on an action, records the decision, and names the state that carries it
 * out. When a class's own action is not possible, {@link #fallback} picks the next allowed rung of the
 * ladder, escalation or a structured failure (choose_degradation and decide_after_verification, §4.4
 * and §4.6). The other states reach DECIDE by calling these methods; it is never a state of its own in
 * the drivers' loop.
 */
final class Decide {

  private final HfrFeatures features;
  private final DecisionRecorder decisions;

  Decide(HfrFeatures features, DecisionRecorder decisions) {
    this.features = features;
    this.decisions = decisions;
  }

  /** Records the decision and moves to the action's state; a retry waits its backoff first. */
  Next settle(Call<?> c, Action action, Reason reason) {
    c.action = action;
    c.reason = reason;
    c.state = ControllerState.DECIDE;
    decisions.record(c, action, reason, DecisionRecorder.ENFORCE);
    switch (action) {
      case RETRY:
        return Next.after(ControllerState.RETRY_WAIT, c.delayNanos);
      case RECONCILE:
        return Next.to(ControllerState.RECONCILE);
      case COMPRESS:
        return Next.to(ControllerState.COMPRESS);
      case DEGRADE_MODEL:
      case DEGRADE_TOOL:
      case DEGRADE_SCOPE:
        return Next.to(ControllerState.DEGRADE);
      case REPLAN:
        return Next.to(ControllerState.REPLAN);
      case ESCALATE:
        return Next.to(ControllerState.ESCALATE);
      default:
        return Next.to(ControllerState.FAIL);
    }
  }

  /**
   * Records that the call waits {@code c.delayNanos} for what refused its retry ({@code why}: the tenant's budget)
   * and then checks again: a retry decision whose delay is the wait.
   */
  Next waitThenCheck(Call<?> c, Reason why) {
    c.action = Action.RETRY;
    c.reason = why;
    c.state = ControllerState.DECIDE;
    decisions.record(c, Action.RETRY, why, DecisionRecorder.ENFORCE);
    return Next.after(ControllerState.CHECK, c.delayNanos);
  }

  /** Whether {@code why} stopped a retry for now (time, a guard) rather than because the write itself keeps failing. */
  private static boolean refusedForNow(Reason why) {
    return why == Reason.DEADLINE || why == Reason.TENANT_BUDGET_EXHAUSTED || why == Reason.CIRCUIT_OPEN
        || why == Reason.BULKHEAD_FULL;
  }

  /** Why a write's outcome is unknown: it timed out, or it failed in a way that proves nothing. */
  static Reason unknownOutcome(Fault f) {
    return f == Fault.T3 ? Reason.TIMEOUT_UNKNOWN_STATE : Reason.WRITE_OUTCOME_UNKNOWN;
  }

  /**
   * The action when the class's own action is not possible: the next allowed rung of the ladder if
   * there is one (and budget for it), otherwise escalation or a structured failure.
   */
  Next fallback(Call<?> c, Reason why) {
    Fault f = c.fault;
    if (f == Fault.T8) {
      return settle(c, Action.ESCALATE, why == Reason.APPROVAL_DENIED ? why : Reason.POLICY_REFUSAL);
    }
    // A write that any attempt may have applied is never sent elsewhere (a rung has no key): not only
    // when the last attempt was ambiguous — a timeout followed by a resend that "proves not applied"
    // says nothing about the first attempt.
    boolean ambiguous = f != null && f != Fault.V1 && !ActionTable.provesNotApplied(f, c.classification);
    boolean unknownWrite = c.ledgerState() == LedgerState.UNKNOWN
        || (c.write() && !c.hasResult && ((features.idempotency() && c.mayHaveApplied()) || (ambiguous && !c.history().reconciledAbsent())));
    boolean committedWrite = c.write() && c.hasResult;
    if (features.degradation() && !unknownWrite && !committedWrite && f != Fault.T7) {
      int next = DegradationLadder.next(c.tool(), c.rung, f, c.policy.allowedAutomatic());
      if (next != DegradationLadder.NONE) {
        // The ladder comes after retry with its own allowance: spent step attempts never block a rung.
        if (c.tryChargeRung() == RetryBudget.Charge.GRANTED) {
          c.nextRung = next;
          return settle(c, DegradationLadder.actionFor(c.tool().degradeLadder().get(next), f), why);
        }
        why = Reason.TASK_BUDGET_EXHAUSTED;
        c.rt.meters.retryBudgetExhausted(why);
      }
      int blocked = DegradationLadder.blockedByCriticality(c.tool(), c.rung, f, c.policy.allowedAutomatic());
      if (blocked != DegradationLadder.NONE) {
        c.suggestion = "degrade to " + c.tool().degradeLadder().get(blocked).target() + " at "
            + c.tool().degradeLadder().get(blocked).level() + " needs a human at " + c.criticality() + " criticality";
        return settle(c, Action.ESCALATE, why);
      }
    }
    if (unknownWrite && c.rung < 0 && c.tool().reconcileMethod() != null) {
      // Before a write that may have happened is escalated or given up, its own reconcile method finds out
      // (Table 6: UNKNOWN must be reconciled): committed is a result, absent frees the ladder.
      return settle(c, Action.RECONCILE, unknownOutcome(f));
    }
    if (unknownWrite && c.risk() == Risk.R1 && c.key() != null && c.rung < 0 && refusedForNow(why)) {
      // An idempotent write whose resend under its key was refused for now (its deadline, a guard): resending it
      // later is safe, so a later call does — the model's re-call in the task, Temporal's next attempt — and no
      // person is asked. The record stays UNKNOWN; the next call of the write resends it under the same key.
      return settle(c, Action.FAIL, why);
    }
    if (unknownWrite) {
      // A refusal (breaker, budget) is named as the reason: it, not the write, decided the escalation.
      boolean refused = why == Reason.CIRCUIT_OPEN || why == Reason.TENANT_BUDGET_EXHAUSTED || why == Reason.BULKHEAD_FULL;
      return settle(c, Action.ESCALATE, refused || (c.ledgerState() == LedgerState.UNKNOWN && c.history().reconciledAbsent())
          ? why : unknownOutcome(f));
    }
    if (committedWrite && f == Fault.V1) {
      // The effect is in place and its result was rejected: resending would repeat it.
      return settle(c, Action.ESCALATE, why);
    }
    if (c.criticality() == Criticality.Level.HIGH || (c.risk() == Risk.R3 && f == Fault.UNCLASSIFIED)) {
      return settle(c, Action.ESCALATE, why);
    }
    if (f == Fault.V1 || why == Reason.REPEATED_ACTION) {
      return settle(c, Action.REPLAN, why);
    }
    return settle(c, Action.FAIL, why);
  }
}
