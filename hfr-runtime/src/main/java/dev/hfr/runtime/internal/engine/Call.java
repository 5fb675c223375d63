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
import dev.hfr.runtime.budget.Deadline;
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
 * calling thread only. A read's call exists only once the read left the inline clean path (it failed, was
 * rejected or refused), so what failures need is the call's own and costs no object of its own: the step's
 * history (the call is its {@link AttemptHistory}), its counter against the task's budget B_t (outside any scope
 * counted here), and a decision that nothing takes, kept as values ({@link #draftDecision}). A read outside any
 * scope gets its one-call task only if something asks for it ({@link #task()}); a write gets its ledger part
 * ({@link WriteState}) when it first needs it.
 */
final class Call<R> extends AttemptHistory implements StepAllowance {

  final ToolRuntime rt;
  final ToolInvocation<R> invocation;
  /** The call's task; {@code null} for a read outside any scope until something asks for it ({@link #task()}). */
  private CallTask task;
  /** Where a call outside any scope takes its one-call task from; {@code null} for a call in a task. */
  private final ImplicitTasks implicitTasks;
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
  /** The rung {@link ControllerState#DEGRADE} moves to. */
  int nextRung = -1;
  int attempts;
  int compressRounds;

  R result;
  boolean hasResult;
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
  /**
   * When what refused the call (an open breaker, an empty retry budget, a rate limit) expects to admit it, in ms
   * from the refusal; -1 when nothing refused it. Decision events and the call's exception report it. Milliseconds
   * in an int, like the kept decision's delay: the call's state stays one small object.
   */
  int admitAfterMillis = -1;
  /** How long the call has waited for its tenant's retry budget so far; bounded by its deadline (or a cap). */
  int budgetWaitedMillis;
  /** Set while the call waits for its retry budget: the reason a granted retry is then decided with. */
  Reason awaitingBudget;
  /**
   * The call holds one of its breaker's half-open permits: the breaker judges this call (all its attempts), not
   * its first attempt, so its retries need no further permit and pass the gate's breaker check.
   */
  boolean holdsProbe;
  /** The reconcile queries asked in a row that failed transiently ({@link Reconcile#QUERY_ATTEMPTS} at most). */
  byte reconcileQueries;
  Action action;
  Reason reason;
  long delayNanos;
  String suggestion;

  String argsHash;
  /** What a person answered in the inbox that decided this call, for the model (a denial's reason); or {@code null}. */
  String personAnswer;
  /** The inbox item this call filed or used (an approval request), or {@code null}. */
  String inboxItem;
  /** A write's ledger state, made when the write first needs it; a read has none. */
  private WriteState write;

  /**
   * The failure of the last attempt on the current target ({@link #fault}, {@link #lastLatencyNanos}) is not yet
   * reported to its (closed) breaker: a breaker judges calls, so a failure a retry then fixes never counts; one
   * the call leaves the target with does ({@link #reportBreakerFailure()}). Until the next attempt ends, those
   * fields still describe it; that attempt's outcome then either takes its place or forgets it.
   */
  private boolean breakerFailurePending;

  /** The step's counter against its task's budget B_t, for a call in a task. */
  private RetryBudget.Step budgetStep;
  /**
   * A call outside any scope counts its one step and its task's budget B_t itself: the step's attempts (0 until
   * the counter is opened) and the retries charged to the task, as {@link RetryBudget.Step} would.
   */
  private int ownStepAttempts;
  private int ownRetriesUsed;
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

  /** A call in {@code task}: an explicit task, or the one-call task of a call outside any scope. */
  Call(ToolRuntime rt, ToolInvocation<R> invocation, CallTask task, ToolRuntime.TenantView view, CallPolicy policy,
      long step, long startNanos) {
    this(rt, invocation, task, task instanceof OneCallTask one ? one.source() : null, view, policy, step, startNanos);
  }

  /**
   * A read outside any scope, whose one-call task is made from {@code tasks} only when something asks for it (its
   * id, its report, an escalation): a read retried and then answered makes none.
   */
  Call(ToolRuntime rt, ToolInvocation<R> invocation, ImplicitTasks tasks, ToolRuntime.TenantView view,
      CallPolicy policy, long startNanos) {
    this(rt, invocation, null, tasks, view, policy, 1, startNanos);
  }

  private Call(ToolRuntime rt, ToolInvocation<R> invocation, CallTask task, ImplicitTasks implicitTasks,
      ToolRuntime.TenantView view, CallPolicy policy, long step, long startNanos) {
    this.rt = rt;
    this.breakers = view.breakers;
    this.invocation = invocation;
    this.task = task;
    this.implicitTasks = implicitTasks;
    this.policy = policy;
    this.step = step;
    this.startNanos = startNanos;
  }

  /** Records that what refused the call expects to admit it in {@code nanos} (rounded up to whole ms); negative: nothing refused it. */
  void admitAfter(long nanos) {
    admitAfterMillis = nanos < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (nanos + 999_999L) / 1_000_000L);
  }

  /** Holds the failure of the attempt just classified until the call is known to leave the target failing. */
  void deferBreakerFailure() {
    breakerFailurePending = true;
  }

  /** A later attempt on the same target answered: the held failure was one a retry fixed. */
  void forgetBreakerFailure() {
    breakerFailurePending = false;
  }

  /** The call leaves the current target failing (a rung, or the end): its breaker counts one failed call. */
  void reportBreakerFailure() {
    dev.hfr.runtime.breaker.CircuitBreaker b = breaker();
    if (breakerFailurePending) {
      breakerFailurePending = false;
      if (b != null) {
        b.onFailure(fault, lastLatencyNanos);
      }
    } else if (holdsProbe && b != null) {
      // A probe that ends without a verdict on the target (paced by a 429, refused by a budget): its permit goes back.
      b.releasePermit();
    }
    holdsProbe = false;
  }

  /** The step's history on the current target: the call's own ({@link AttemptHistory}). */
  AttemptHistory history() {
    return this;
  }

  /** A fresh history for a new target (a ladder rung): streaks against the old target do not carry over. */
  void resetHistory() {
    restart();
  }

  // The call's task, made on first need for a read outside any scope.

  CallTask task() {
    CallTask t = task;
    if (t == null) {
      OneCallTask made = implicitTasks.next();
      made.onCallStart(false); // a read, started when its call was
      task = made;
      t = made;
    }
    return t;
  }

  /** The call's task if it was made already, else {@code null} (a read outside any scope nothing asked about). */
  CallTask taskIfMade() {
    return task;
  }

  /** The call's explicit task, or {@code null} outside any scope. */
  TaskState explicitTask() {
    return implicitTasks == null ? (TaskState) task : null;
  }

  /** Whether the call runs outside any scope (in a one-call task). */
  boolean implicit() {
    return implicitTasks != null;
  }

  String tenant() {
    return implicitTasks != null ? implicitTasks.tenant() : task.tenant();
  }

  /** The task's deadline; a call outside any scope has none. */
  Deadline deadline() {
    return implicitTasks != null ? Deadline.NONE : task.deadline();
  }

  /** The task's quality floor, or NaN when the task sets none (a call outside any scope never does). */
  double taskQualityFloor() {
    return implicitTasks != null ? Double.NaN : task.qualityFloor();
  }

  // The call is its step's allowance (StepAllowance): the step's attempts against its task's budget, counted by
  // the task's RetryBudget.Step, or outside any scope here. The counter opens on first need (its first attempt is
  // made), so a clean call opens none.

  private void openStep() {
    if (implicitTasks != null) {
      if (ownStepAttempts == 0) {
        ownStepAttempts = 1;
      }
    } else if (budgetStep == null) {
      budgetStep = ((TaskState) task).retryBudget().openStep(policy.retry().maxAttempts());
    }
  }

  /** Whether a failure opened the step's counter. */
  boolean stepOpened() {
    return implicitTasks != null ? ownStepAttempts > 0 : budgetStep != null;
  }

  @Override
  public int stepAttempts() {
    openStep();
    return implicitTasks != null ? ownStepAttempts : budgetStep.attempts();
  }

  /** Total attempts the step may make. */
  int stepMaxAttempts() {
    openStep();
    return implicitTasks != null ? policy.retry().maxAttempts() : budgetStep.maxAttempts();
  }

  @Override
  public RetryBudget.Charge tryChargeRetry() {
    openStep();
    if (implicitTasks == null) {
      return budgetStep.tryChargeRetry();
    }
    if (ownStepAttempts >= policy.retry().maxAttempts()) {
      return RetryBudget.Charge.STEP_EXHAUSTED;
    }
    if (!tryChargeOwnTask()) {
      return RetryBudget.Charge.TASK_EXHAUSTED;
    }
    ownStepAttempts++;
    return RetryBudget.Charge.GRANTED;
  }

  /** Charges one attempt on a degradation rung to the task only ({@link RetryBudget.Step#tryChargeRung()}). */
  RetryBudget.Charge tryChargeRung() {
    openStep();
    if (implicitTasks == null) {
      return budgetStep.tryChargeRung();
    }
    return tryChargeOwnTask() ? RetryBudget.Charge.GRANTED : RetryBudget.Charge.TASK_EXHAUSTED;
  }

  @Override
  public void refundRetry() {
    if (implicitTasks == null) {
      budgetStep.refundRetry();
      return;
    }
    if (ownStepAttempts <= 1) {
      throw new IllegalStateException("no retry of this step to refund");
    }
    ownStepAttempts--;
    ownRetriesUsed--;
  }

  /** Retries left to the task, or -1 when its budget is unlimited or was never asked for. */
  int taskRetriesLeft() {
    if (implicitTasks != null) {
      int max = implicitTasks.maxRetries();
      return max < 0 || ownStepAttempts == 0 ? -1 : max - ownRetriesUsed;
    }
    RetryBudget b = ((TaskState) task).retryBudgetIfOpened();
    return b == null || b.maxRetriesPerTask() == Integer.MAX_VALUE ? -1 : b.remaining();
  }

  private boolean tryChargeOwnTask() {
    int max = implicitTasks.maxRetries();
    if (max >= 0 && ownRetriesUsed >= max) {
      return false;
    }
    ownRetriesUsed++;
    return true;
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
          implicitTasks != null ? null : task.taskId(), draftAttempt, rungLevel(draftRung), draftFault, draftClassification,
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

  /** The write's ledger state, made on first need. */
  WriteState writeState() {
    WriteState w = write;
    if (w == null) {
      w = new WriteState();
      write = w;
    }
    return w;
  }

  /** The write's ledger state, or {@code null} when nothing of it was set (a read, an unkeyed write). */
  WriteState writeStateIfAny() {
    return write;
  }

  /** The write's ledger key, or {@code null} (a read, an unkeyed write). */
  String key() {
    return write == null ? null : write.key;
  }

  /** The idempotency key an R1 tool receives. */
  String wireKey() {
    return write == null ? null : write.wireKey != null ? write.wireKey : write.key;
  }

  Lease lease() {
    return write == null ? null : write.lease;
  }

  LedgerState ledgerState() {
    return write == null ? null : write.ledgerState;
  }

  boolean alreadyCommitted() {
    return write != null && write.alreadyCommitted;
  }

  boolean recall() {
    return write != null && write.recall;
  }

  boolean replayed() {
    return write != null && write.replayed;
  }

  boolean resultFromReconcile() {
    return write != null && write.resultFromReconcile;
  }

  boolean mayHaveApplied() {
    return write != null && write.mayHaveApplied;
  }

  boolean freshKey() {
    return write != null && write.freshKey;
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

  @Override
  public String toString() {
    return "Call[" + rt.tool.name() + " step " + step + ", " + state + ", " + attempts + " attempts, " + super.toString() + "]";
  }
}
