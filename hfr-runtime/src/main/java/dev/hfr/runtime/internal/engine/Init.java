package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.ToolMeters;
import java.util.List;
import java.util.Optional;

/**
 * INIT (Table 9): admits the call into its task (limits), asks for approval where the tool needs it, and
 * for a write prepares its ledger record and takes its lease before the first attempt (§4.5). An existing
 * record decides what happens instead of a blind resend: committed writes are never executed again
 * (§5.4), and a write that may have happened is reconciled first.
 */
final class Init {

  private static final Classification APPROVAL_DENIED = new Classification(Fault.T8, 1.0, null, -1, "approval.denied");
  private static final Classification LEDGER_UNKNOWN = new Classification(Fault.T3, 1.0, null, -1, "ledger.unknown");
  private static final Classification RESUMED_WRITE = new Classification(Fault.T3, 1.0, null, -1, "ledger.resumed_task");

  private final HfrFeatures features;
  private final Oversight oversight;
  private final WriteLedger writes;
  private final Decide decide;
  private final AttemptTimeout timeouts;

  Init(HfrFeatures features, Oversight oversight, WriteLedger writes, Decide decide, AttemptTimeout timeouts) {
    this.features = features;
    this.oversight = oversight;
    this.writes = writes;
    this.decide = decide;
    this.timeouts = timeouts;
  }

  <R> Next run(Call<R> c) {
    // A read admitted on the inline path arrives here only when its task refused it.
    TaskLimit limit = c.refusal != null ? c.refusal
        : admit(c.task(), c.tool(), c.write(), c.risk().compareTo(Risk.R2) >= 0 || c.tool().requiresApproval(), c.startNanos);
    if (limit != null) {
      c.rt.meters.retryBudgetExhausted(Reason.TASK_LIMIT_REACHED);
      if (limit == TaskLimit.SAME_TOOL_CALLS) {
        return decide.settle(c, Action.REPLAN, Reason.REPEATED_ACTION);
      }
      return decide.settle(c, Action.FAIL, Reason.TASK_LIMIT_REACHED);
    }
    if (c.tool().requiresApproval() && !oversight.approved(c)) {
      c.classification = APPROVAL_DENIED;
      c.fault = Fault.T8;
      return decide.settle(c, Action.ESCALATE, Reason.APPROVAL_DENIED);
    }
    // idempotency.enabled: false leaves writes unkeyed; an ambiguous failure is still reconciled or escalated.
    if (c.write() && features.idempotency() && writes.keysWrites()) {
      return prepareWrite(c);
    }
    return Next.to(ControllerState.RUN_STEP);
  }

  /**
   * The admission of a call into its task: counts it, and checks the task's limits at {@code nowNanos}
   * (the call's start). Returns the limit that refuses the call, or {@code null}.
   */
  TaskLimit admit(CallTask task, ToolDescriptor tool, boolean write, boolean highRisk, long nowNanos) {
    task.onCallStart(highRisk);
    return features.budgets() && task.limits() != null ? task.limits().beforeToolCall(tool.name(), write, nowNanos) : null;
  }

  /**
   * The admission of a read on the inline path: as {@link #admit}, at {@code nowNanos}, which is an exact reading
   * of the clock if {@code exact}, else the tool's latest (an untimed, sampled call); the read's step number is
   * taken in the same critical section ({@link TaskState#admitRead}).
   *
   * @return the {@link Admission}: the step and the limit that refuses the read, if any
   */
  long admitRead(TaskState task, ToolDescriptor tool, long nowNanos, boolean exact) {
    return task.admitRead(tool.name(), nowNanos, exact, features.budgets());
  }

  /**
   * The write's ledger record before its first attempt (§4.5), and what an existing record means. Only a
   * call that created the record or took it over under its own lease sends ({@link WriteClaims}).
   */
  private <R> Next prepareWrite(Call<R> c) {
    List<Object> args = IdempotencyKeys.arguments(c.tool(), c.invocation);
    c.argsHash = IdempotencyKeys.argsHash(args);
    WriteClaims.Keyed keyed = writes.key(c.task(), c.tool().name(), args, c.argsHash, c.step);
    WriteState w = c.writeState();
    w.key = keyed.key();
    w.recall = keyed.recall();
    TaskState explicit = c.explicitTask();
    if (explicit != null) {
      // The task's start checkpoint goes before its first write's record (§5.4): a cut-off task is listed
      // with that write, and an earlier run's unfinished writes are handed to this one first.
      oversight.checkpoints().startDue(explicit);
    }
    WriteClaims.Claim claim = writes.claim(c);
    w.ledgerState = claim.record().state();
    LedgerRecord standsFor = null;
    ResumedWrites resumed = explicit != null ? explicit.resumed() : null;
    if (resumed != null) {
      if (claim.kind() == WriteClaims.Kind.CREATED) {
        standsFor = resumed.takeUnmatched(c.tool().name());
      } else {
        resumed.matched(c.tool().name(), claim.key());
      }
    }
    switch (claim.kind()) {
      case CREATED:
        writes.hold(c, claim.lease());
        return standsFor == null ? Next.to(ControllerState.RUN_STEP) : resumedWrite(c, standsFor);
      case COMMITTED:
        return alreadyCommitted(c);
      case COMPENSATED:
        // The effect was undone; whether to do it again is the business's call.
        return decide.settle(c, Action.ESCALATE, Reason.ALREADY_COMMITTED);
      case IN_USE:
        // Another recoverer kept acting on this very write for a whole lease: doing anything would race it.
        c.error = writes.inUse(claim);
        c.suggestion = c.error.getMessage();
        return decide.settle(c, Action.FAIL, Reason.KEY_IN_USE);
      default:
        break;
    }
    writes.hold(c, claim.lease());
    switch (c.ledgerState()) {
      case PREPARED:
        // A previous run prepared this write and vanished (its lease lapsed): it may have happened.
        writes.transition(c, LedgerState.UNKNOWN, null);
        c.classification = LEDGER_UNKNOWN;
        c.fault = Fault.T3;
        return decide.settle(c, Action.RECONCILE, Reason.TIMEOUT_UNKNOWN_STATE);
      case UNKNOWN:
        c.classification = LEDGER_UNKNOWN;
        c.fault = Fault.T3;
        return decide.settle(c, Action.RECONCILE, Reason.TIMEOUT_UNKNOWN_STATE);
      default:
        // FAILED or RECONCILED_ABSENT: nothing was applied; prepared again under this call's lease.
        writes.transition(c, LedgerState.PREPARED, null);
        return Next.to(ControllerState.RUN_STEP);
    }
  }

  /**
   * A new write of a reopened task that may repeat a write its cut-off run left unfinished ({@code
   * unfinished}) under other arguments: an R1 write is sent under that write's key, so the provider
   * deduplicates the two; any other is reconciled before its first send (Table 7), with this call's
   * arguments, and sent only if the reconcile finds nothing.
   */
  private <R> Next resumedWrite(Call<R> c, LedgerRecord unfinished) {
    if (c.risk() == Risk.R1) {
      c.writeState().wireKey = unfinished.key();
      return Next.to(ControllerState.RUN_STEP);
    }
    c.classification = RESUMED_WRITE;
    c.fault = Fault.T3;
    return decide.settle(c, Action.RECONCILE, Reason.RESUMED_WRITE);
  }

  /**
   * The ledger holds the write as committed: it is never executed again (§5.4). A write the task committed
   * in this process is answered with the result it returned then (a replay); otherwise the world is asked
   * again where that is safe, and an R3 or unqueryable R2 write is refused.
   */
  @SuppressWarnings("unchecked")
  private <R> Next alreadyCommitted(Call<R> c) {
    c.writeState().alreadyCommitted = true;
    WriteAnswers answers = c.task().answers();
    WriteAnswers.Committed kept = answers == null ? null : answers.committed(c.key());
    if (kept != null) {
      c.result = (R) kept.result();
      c.hasResult = true;
      c.writeState().replayed = true;
      return Next.to(ControllerState.ACCEPT);
    }
    if (c.risk() == Risk.R1 && c.tool().reconcileMethod() == null) {
      // The service answers a known key with the committed result, without a second effect (Proposition 2).
      return Next.to(ControllerState.RUN_STEP);
    }
    if (c.tool().reconcileMethod() != null) {
      try {
        Optional<R> committed = timeouts.reconcile(c);
        if (committed.isPresent()) {
          c.result = committed.get();
          c.hasResult = true;
          c.writeState().resultFromReconcile = true;
          c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
          return Next.to(ControllerState.VERIFY);
        }
      } catch (Exception e) {
        c.error = e;
      }
      // The ledger says committed and the world does not confirm it: a human must look.
      c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.UNKNOWN);
      return decide.settle(c, Action.ESCALATE, Reason.RECONCILE_UNKNOWN);
    }
    return decide.settle(c, Action.FAIL, Reason.ALREADY_COMMITTED);
  }
}
