package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.observation.CallScope;
import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.internal.retry.AttemptHistory;
import dev.hfr.runtime.internal.retry.StepAllowance;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.verify.Verdict;
import java.util.ArrayList;
import java.util.List;

/**
 * The mutable state of one logical call while the state machine runs it: one object per call, used by the
 * calling thread only. Parts that only failures need (the step's history, its counter against a task's budget,
 * the decisions as events) are created on the first failure that needs them, so a clean call allocates nothing
 * else; a call outside any task counts its budget in its {@link OneCallTask}, and a read's decision that nothing
 * takes stays values here ({@link #draftDecision}).
 */
final class Call<R> implements StepAllowance {

  final ToolRuntime rt;
  final ToolInvocation<R> invocation;
  final CallTask task;
  final CallPolicy policy;
  /** The tenant's breakers of the method and each rung, or {@code null} when breakers are off. */
  final dev.hfr.runtime.breaker.CircuitBreaker[] breakers;
  final long step;
  final long startNanos;

  ControllerState state = ControllerState.INIT;
  /** Made current around each stretch of an asynchronous call's steps (its Observation); none for blocking calls. */
  CallScope scope = CallScope.NONE;
  /** The ladder rung the next attempt runs on; -1 is the method itself. */
  int rung = -1;
  /**
   * An attempt of this write failed in a way that does not prove it was not applied, and no reconcile has
   * found it absent since: whatever the later attempts say, its effect may be in place, so it must not be
   * sent anywhere without a key (a rung) — only resent under its key, or escalated.
   */
  boolean mayHaveApplied;
  /** The rung {@link ControllerState#DEGRADE} moves to. */
  int nextRung = -1;
  int attempts;
  int compressRounds;

  R result;
  boolean hasResult;
  boolean resultFromReconcile;
  Exception error;
  long lastLatencyNanos;
  /** When the last attempt ended: the breaker's time for its outcome, and where verification starts. */
  long lastAttemptEndNanos;
  long verifyNanos;
  Classification classification;
  Fault fault;
  Verdict lastRejection;
  boolean verificationRequired;
  double quality = 1.0;

  /** The task limit that refused the call when it was admitted before its Call existed (the inline read). */
  TaskLimit refusal;

  /** The bulkhead permit the running attempt holds, released when it ends. */
  dev.hfr.runtime.breaker.Bulkhead bulkhead;

  /** Set when the call could not even be attempted (breaker open, bulkhead full). */
  Reason blocked;
  Action action;
  Reason reason;
  long delayNanos;
  String suggestion;

  // Writes
  String key;
  /**
   * The key an R1 write sends to its provider when it is not {@link #key}: the key of the unfinished write
   * of a cut-off run this write stands in for (a reopened task), so the provider deduplicates the two.
   */
  String wireKey;
  String argsHash;
  Lease lease;
  /** Renews {@link #lease} while the call runs; {@code null} without a lease. */
  LeaseHeartbeat.Beat heartbeat;
  LedgerState ledgerState;
  boolean alreadyCommitted;
  /** The call repeats an earlier write of its task (the model called the tool again): it has that write's key. */
  boolean recall;
  /** The result is a committed write's, kept by the task and answered without sending anything. */
  boolean replayed;
  /**
   * A rejected write was compensated, or (R1) reconciled absent: its next send takes the write's next key
   * ({@link RejectedWrite#prepareAgain}), since its provider answers the old key with the rejected answer.
   */
  boolean freshKey;
  /** How many fresh keys the call took: a call outside any task numbers its write's occurrences itself. */
  int freshKeys;

  /**
   * The failure of the last attempt on the current target, not yet reported to its (closed) breaker: a
   * breaker judges calls, so a failure a retry then fixes never counts; one the call leaves the target
   * with does ({@link #reportBreakerFailure()}).
   */
  private Fault pendingBreakerFault;
  private long pendingBreakerLatencyNanos;

  private AttemptHistory history;
  /** The step's counter against its task's budget B_t; a call outside any task counts in its {@link OneCallTask}. */
  private RetryBudget.Step budgetStep;
  /** The first decision, and the list from the second on: most failed calls take one decision. */
  private DecisionEvent firstDecision;
  private List<DecisionEvent> decisions;
  /**
   * The last decision while nothing has heard it ({@link DecisionRecorder#record}): its values, kept here until a
   * later decision or an escalation's evidence needs it as an event, so a read retried and then answered builds
   * none. Set while {@code draftAction} is not {@code null}.
   */
  private Action draftAction;
  private Reason draftReason;
  private Fault draftFault;
  private Classification draftClassification;
  private int draftRung;
  private int draftAttempt;
  private int draftStepLeft;
  private int draftTaskLeft;
  private long draftEpochMillis;
  private int draftDelayMillis;
  private int draftLatencyMillis;
  /** How many of the last decisions await the end of the call to be published or sampled out. */
  int unpublished;

  Call(ToolRuntime rt, ToolInvocation<R> invocation, CallTask task, ToolRuntime.TenantView view, CallPolicy policy,
      long step, long startNanos) {
    this.rt = rt;
    this.breakers = view.breakers;
    this.invocation = invocation;
    this.task = task;
    this.policy = policy;
    this.step = step;
    this.startNanos = startNanos;
  }

  /** Holds a failed attempt's outcome until the call is known to leave the current target failing. */
  void deferBreakerFailure(Fault fault, long latencyNanos) {
    pendingBreakerFault = fault;
    pendingBreakerLatencyNanos = latencyNanos;
  }

  /** A later attempt on the same target answered: the held failure was one a retry fixed. */
  void forgetBreakerFailure() {
    pendingBreakerFault = null;
  }

  /** The call leaves the current target failing (a rung, or the end): its breaker counts one failed call. */
  void reportBreakerFailure() {
    Fault f = pendingBreakerFault;
    if (f != null) {
      pendingBreakerFault = null;
      dev.hfr.runtime.breaker.CircuitBreaker b = breaker();
      if (b != null) {
        b.onFailure(f, pendingBreakerLatencyNanos);
      }
    }
  }

  AttemptHistory history() {
    if (history == null) {
      history = new AttemptHistory();
    }
    return history;
  }

  /** A fresh history for a new target (a ladder rung): streaks against the old target do not carry over. */
  void resetHistory() {
    history = new AttemptHistory();
  }

  // The call is its step's allowance (StepAllowance): the step's attempts against its task's budget, counted by
  // the task's RetryBudget.Step, or outside any task by its OneCallTask. The counter opens on first need (its
  // first attempt is made), so a clean call opens none.

  private void openStep() {
    if (task instanceof OneCallTask one) {
      if (!one.stepOpened()) {
        one.openStep(policy.retry().maxAttempts());
      }
    } else if (budgetStep == null) {
      budgetStep = ((TaskState) task).retryBudget().openStep(policy.retry().maxAttempts());
    }
  }

  /** Whether a failure opened the step's counter. */
  boolean stepOpened() {
    return task instanceof OneCallTask one ? one.stepOpened() : budgetStep != null;
  }

  @Override
  public int stepAttempts() {
    openStep();
    return task instanceof OneCallTask one ? one.stepAttempts() : budgetStep.attempts();
  }

  /** Total attempts the step may make. */
  int stepMaxAttempts() {
    openStep();
    return task instanceof OneCallTask one ? one.stepMaxAttempts() : budgetStep.maxAttempts();
  }

  @Override
  public RetryBudget.Charge tryChargeRetry() {
    openStep();
    return task instanceof OneCallTask one ? one.tryChargeRetry() : budgetStep.tryChargeRetry();
  }

  /** Charges one attempt on a degradation rung to the task only ({@link RetryBudget.Step#tryChargeRung()}). */
  RetryBudget.Charge tryChargeRung() {
    openStep();
    return task instanceof OneCallTask one ? one.tryChargeRung() : budgetStep.tryChargeRung();
  }

  @Override
  public void refundRetry() {
    if (task instanceof OneCallTask one) {
      one.refundRetry();
    } else {
      budgetStep.refundRetry();
    }
  }

  /** Retries left to the task, or -1 when its budget is unlimited or was never asked for. */
  int taskRetriesLeft() {
    if (task instanceof OneCallTask one) {
      return one.retriesLeft();
    }
    RetryBudget b = ((TaskState) task).retryBudgetIfOpened();
    return b == null || b.maxRetriesPerTask() == Integer.MAX_VALUE ? -1 : b.remaining();
  }

  void addDecision(DecisionEvent event) {
    materializeDraft();
    if (firstDecision == null) {
      firstDecision = event;
      return;
    }
    if (decisions == null) {
      decisions = new ArrayList<>(4);
      decisions.add(firstDecision);
    }
    decisions.add(event);
  }

  /**
   * Keeps a decision nothing has heard as values: it becomes an event only if a later decision is taken or the
   * decisions are asked for. A read's (no key, no ledger state, no result, no rejection) in enforce mode only.
   */
  void draftDecision(long epochMillis, Action action, Reason reason, long delayMillis, int stepLeft, int taskLeft) {
    materializeDraft();
    draftEpochMillis = epochMillis;
    draftAction = action;
    draftReason = reason;
    draftDelayMillis = saturatedInt(delayMillis);
    draftLatencyMillis = saturatedInt(lastLatencyNanos / 1_000_000L);
    draftAttempt = attempts;
    draftRung = rung;
    draftFault = fault;
    draftClassification = classification;
    draftStepLeft = stepLeft;
    draftTaskLeft = taskLeft;
  }

  /** Millisecond delays and latencies a draft keeps as ints: 24 days and more read as Integer.MAX_VALUE. */
  private static int saturatedInt(long millis) {
    return (int) Math.min(millis, Integer.MAX_VALUE);
  }

  private void materializeDraft() {
    Action action = draftAction;
    if (action != null) {
      draftAction = null;
      addDecision(DecisionRecorder.event(this, draftEpochMillis, DecisionRecorder.ENFORCE,
          task.implicit() ? null : task.taskId(), draftAttempt, rungLevel(draftRung), draftFault, draftClassification,
          action, draftReason, draftDelayMillis, draftLatencyMillis, draftStepLeft, draftTaskLeft, null, argsHash, null,
          null, null));
    }
  }

  /** Every decision taken so far, in order. */
  List<DecisionEvent> decisions() {
    materializeDraft();
    return decisions != null ? decisions : firstDecision != null ? List.of(firstDecision) : List.of();
  }

  ToolDescriptor tool() {
    return rt.tool;
  }

  Risk risk() {
    return rt.tool.risk();
  }

  Criticality.Level criticality() {
    return policy.criticality();
  }

  boolean write() {
    return risk() != Risk.R0;
  }

  /** The idempotency key an R1 tool receives. */
  String wireKey() {
    return wireKey != null ? wireKey : key;
  }

  /** The argument hash for records: the ledger's when there is one; never fails (hashes the type when it must). */
  String argsHash() {
    if (argsHash == null) {
      try {
        argsHash = IdempotencyKeys.argsHash(IdempotencyKeys.arguments(rt.tool, invocation));
      } catch (RuntimeException unreadable) {
        argsHash = "unhashable";
      }
    }
    return argsHash;
  }

  /** The breaker of the current rung, or {@code null} when breakers are off. */
  dev.hfr.runtime.breaker.CircuitBreaker breaker() {
    return breakers == null ? null : breakers[rung + 1];
  }

  DegradeLevel rungLevel() {
    return rungLevel(rung);
  }

  private DegradeLevel rungLevel(int rung) {
    return rung < 0 ? DegradeLevel.L0 : rt.tool.degradeLadder().get(rung).level();
  }
}
