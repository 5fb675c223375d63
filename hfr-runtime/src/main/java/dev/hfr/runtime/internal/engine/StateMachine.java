package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;

/**
 * The states of Table 9 as steps: each decides what comes next ({@link Next}: a state and an optional
 * wait) and never waits itself, so the logic exists once for every driver. {@link BlockingDriver} runs
 * the steps on the calling thread and sleeps the waits; {@link AsyncDriver} runs them on whichever thread
 * completes an attempt and schedules the waits.
 *
 * <pre>
 * INIT ─▶ RUN_STEP ─▶ OBSERVE ─┬─▶ VERIFY ─┬─▶ ACCEPT
 *            ▲                 │           └─▶ CHECK (a rejection is a V1 fault; a write's is reconciled first)
 *            │                 └─▶ CLASSIFY ─▶ CHECK ─▶ DECIDE ─┬─▶ (wait) RETRY_WAIT ─▶ RUN_STEP
 *            │                                                  ├─▶ RECONCILE ─▶ VERIFY | CHECK | DECIDE
 *            │                                                  ├─▶ COMPRESS ─▶ DECIDE
 *            └──────────────────────────────────────────────────├─▶ DEGRADE ─▶ RUN_STEP
 *                                                               └─▶ REPLAN | ESCALATE | FAIL
 * </pre>
 */
final class StateMachine {

  final Init init;
  final RunStep runStep;
  final Verify verify;
  private final Observe observe;
  private final Classify classify;
  private final Check check;
  private final Decide decide;
  private final RetryWait retryWait;
  private final Reconcile reconcile;
  private final Compress compress;
  private final Degrade degrade;
  private final Accept accept;
  private final Terminate terminate;

  StateMachine(EngineParts parts) {
    WriteLedger writes = parts.writes;
    CallEnd end = new CallEnd(parts.clock, writes, parts.decisions.listener());
    this.decide = new Decide(parts.features, parts.decisions);
    this.init = new Init(parts.features, parts.oversight, writes, decide, parts.timeouts, parts.compensator);
    this.runStep = new RunStep(parts.features, parts.clock, parts.timeouts);
    this.observe = new Observe();
    this.classify = new Classify(parts.features, parts.failures, writes);
    RejectedWrite rejectedWrites = new RejectedWrite(writes, decide, parts.timeouts, parts.compensator);
    this.check = new Check(parts.features, parts.failures, parts.clock, decide, rejectedWrites);
    this.retryWait = new RetryWait(rejectedWrites);
    this.reconcile = new Reconcile(writes, parts.decisions, decide, parts.timeouts, parts.failures, parts.clock);
    this.compress = new Compress(parts.failures, check, decide);
    this.degrade = new Degrade(rejectedWrites);
    this.verify = new Verify(parts.features, parts.verification, parts.clock, decide, writes);
    this.accept = new Accept(parts.features, parts.clock, end, parts.decisions, parts.oversight);
    this.terminate = new Terminate(parts.oversight, writes, end);
  }

  /** Runs the non-terminal state {@code s} of {@code c}. */
  <R> Next step(Call<R> c, ControllerState s) {
    switch (s) {
      case INIT:
        return init.run(c);
      case RUN_STEP:
        return runStep.run(c);
      case OBSERVE:
        return observe.run(c);
      case CLASSIFY:
        return classify.run(c);
      case CHECK:
        return check.run(c);
      case RETRY_WAIT:
        return retryWait.run(c);
      case RECONCILE:
        return reconcile.run(c);
      case COMPRESS:
        return compress.run(c);
      case DEGRADE:
        return degrade.run(c);
      case VERIFY:
        return verify.run(c);
      default:
        // DECIDE is settled inside the step that reaches it; ACCEPT and the terminal states end the call.
        throw new IllegalStateException("no step runs " + s + " for " + c.tool().name());
    }
  }

  /** ACCEPT: ends the call with its result. */
  <R> R accept(Call<R> c) {
    return accept.run(c);
  }

  /** REPLAN, ESCALATE, FAIL: ends the call with the structured failure to throw. */
  <R> ToolCallException terminate(Call<R> c, ControllerState s) {
    return terminate.run(c, s);
  }

  /** Whether {@code s} ends the call with a structured failure. */
  static boolean failsCall(ControllerState s) {
    return s == ControllerState.REPLAN || s == ControllerState.ESCALATE || s == ControllerState.FAIL;
  }

  /**
   * The call's lease lapsed and another recoverer took its key over (a checkpoint was refused by the
   * fencing token): the record is the new holder's, who reconciles it. The call ends {@code key_in_use}.
   */
  <R> ToolCallException lostKey(Call<R> c, LostKey e) {
    c.suggestion = "the lease on key " + c.key() + " lapsed and another recoverer took the key over; it reconciles the write";
    if (c.error == null) {
      c.error = e.refusal;
    }
    return terminate(c, decide.settle(c, Action.FAIL, Reason.KEY_IN_USE).state);
  }

  /** The wait before a retry was interrupted: the call fails rather than resending early. */
  Next interrupted(Call<?> c) {
    return decide.settle(c, Action.FAIL, Reason.INTERRUPTED);
  }
}
