package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CompensationException;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.PersonAnswer;
import dev.hfr.runtime.inbox.internal.InboxBook;
import dev.hfr.runtime.inbox.internal.PersonResults;
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
  /** Undoes a committed write a person asked to have undone ("undo it"). */
  private final Compensator compensator;

  Init(HfrFeatures features, Oversight oversight, WriteLedger writes, Decide decide, AttemptTimeout timeouts,
      Compensator compensator) {
    this.compensator = compensator;
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
    // idempotency.enabled: false leaves writes unkeyed; an ambiguous failure is still reconciled or escalated.
    boolean keyed = c.write() && features.idempotency() && writes.keysWrites();
    boolean inInbox = keyed && c.tool().requiresApproval() && oversight.inboxApprovals();
    if (c.tool().requiresApproval() && !inInbox && !oversight.approved(c)) {
      c.classification = APPROVAL_DENIED;
      c.fault = Fault.T8;
      return decide.settle(c, Action.ESCALATE, Reason.APPROVAL_DENIED);
    }
    if (keyed) {
      WriteClaims.Keyed k = key(c);
      if (inInbox) {
        Next notApproved = inboxApproval(c, k.key());
        if (notApproved != null) {
          return notApproved;
        }
      }
      return prepareWrite(c);
    }
    return Next.to(ControllerState.RUN_STEP);
  }

  /**
   * The approval in the inbox of a write about to be sent: {@code null} lets the call go on (approved now, used once;
   * or the write has a record already, whose own rules decide — nothing is sent twice under one approval). Otherwise
   * the call ends at once, nothing sent and no thread waiting: waiting for a person, denied with their reason, or — an
   * expired or used approval — a new request filed.
   */
  private <R> Next inboxApproval(Call<R> c, String key) {
    Optional<LedgerRecord> record = writes.find(c.task().tenant(), key);
    if (record.isPresent() && !WriteClaims.provesNotApplied(record.get().state())) {
      return null;
    }
    InboxBook.ApprovalStatus status = oversight.inboxApproval(c, key);
    c.inboxItem = status.item().id();
    switch (status.verdict()) {
      case APPROVED:
        c.rt.meters.approval(true);
        return null;
      case DENIED:
        c.rt.meters.approval(false);
        c.classification = APPROVAL_DENIED;
        c.fault = Fault.T8;
        c.personAnswer = status.item().answer().reason();
        return decide.settle(c, Action.FAIL, Reason.APPROVAL_DENIED);
      case EXPIRED:
        return decide.settle(c, Action.FAIL, Reason.APPROVAL_EXPIRED);
      case USED:
        return decide.settle(c, Action.FAIL, Reason.APPROVAL_USED);
      default:
        return decide.settle(c, Action.FAIL, Reason.AWAITING_APPROVAL);
    }
  }

  /** The write's arguments, their hash and its key, worked out once per call (the key counts occurrences). */
  private <R> WriteClaims.Keyed key(Call<R> c) {
    List<Object> args = IdempotencyKeys.arguments(c.tool(), c.invocation);
    c.argsHash = IdempotencyKeys.argsHash(args);
    WriteClaims.Keyed keyed = writes.key(c.task(), c.tool().name(), args, c.argsHash, c.step);
    WriteState w = c.writeState();
    w.key = keyed.key();
    w.recall = keyed.recall();
    return keyed;
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
    TaskState explicit = c.explicitTask();
    if (explicit != null) {
      // The task's start checkpoint goes before its first write's record (§5.4): a cut-off task is listed
      // with that write, and an earlier run's unfinished writes are handed to this one first.
      oversight.checkpoints().startDue(explicit);
    }
    WriteClaims.Claim claim = writes.claim(c);
    c.writeState().ledgerState = claim.record().state();
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
        Optional<PersonAnswer> undo = personAnswer(c);
        if (undo.isPresent() && undo.get().answer() == Answer.UNDO) {
          // A person had it undone: the model is told again, nobody is asked again.
          c.personAnswer = "a person had this write undone; it was undone and is not done again" + because(undo.get());
          return decide.settle(c, Action.FAIL, Reason.COMPENSATED);
        }
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
        Optional<PersonAnswer> answered = personAnswer(c);
        if (answered.isPresent() && answered.get().answer() == Answer.LEAVE) {
          // A person closed it as it is: the model is told, nothing is sent or asked again.
          c.personAnswer = "a person closed this write as it is" + because(answered.get());
          return decide.settle(c, Action.FAIL, Reason.CLOSED_BY_PERSON);
        }
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
   * "Undo it": the write happened and must not stand. Its tool's compensate method undoes it now, with this call's
   * arguments (the inbox keeps none raw); nothing is sent. A tool without one leaves it done, and the model is told.
   */
  private <R> Next undoneByPerson(Call<R> c, PersonAnswer undo) {
    if (c.tool().compensateMethod() == null) {
      c.personAnswer = "a person asked for this write to be undone, but its tool cannot undo it: it stays done"
          + because(undo);
      return decide.settle(c, Action.FAIL, Reason.NOT_COMPENSABLE);
    }
    try {
      compensator.compensate(c.task().tenant(), c.task().taskId(), c.step, c.tool(), c.invocation, c.key());
    } catch (CompensationException e) {
      c.error = e;
      c.personAnswer = "a person asked for this write to be undone; undoing it did not succeed (" + e.reason().code() + ")";
      return decide.settle(c, Action.FAIL, e.reason());
    }
    c.writeState().ledgerState = LedgerState.COMPENSATED;
    c.personAnswer = "a person had this write undone; it was undone and is not done again" + because(undo);
    return decide.settle(c, Action.FAIL, Reason.COMPENSATED);
  }

  /** The answer a person gave in the inbox about this write, if any. */
  private Optional<PersonAnswer> personAnswer(Call<?> c) {
    InboxBook inbox = oversight.inbox();
    return inbox == null || c.key() == null ? Optional.empty() : inbox.answerFor(c.task().tenant(), c.key());
  }

  private static String because(PersonAnswer a) {
    return a.reason().isEmpty() ? "" : ": " + a.reason();
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
    Optional<PersonAnswer> person = personAnswer(c);
    if (person.isPresent() && person.get().answer() == Answer.UNDO) {
      return undoneByPerson(c, person.get());
    }
    if (person.isPresent() && person.get().answer() == Answer.HAPPENED) {
      Optional<Object> given = PersonResults.asResult(person.get().result(), c.tool().resultType());
      if (given.isPresent()) {
        // A person said it happened and gave its result: that is the write's answer, a replay.
        c.result = (R) PersonResults.unwrap(given.get());
        c.hasResult = true;
        c.writeState().replayed = true;
        return Next.to(ControllerState.ACCEPT);
      }
      c.personAnswer = "a person confirmed this write happened" + because(person.get());
      return decide.settle(c, Action.FAIL, Reason.ALREADY_COMMITTED);
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
