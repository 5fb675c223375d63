package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TaskLimitTracker;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.util.ArrayList;
import java.util.List;

/**
 * The running state of one task opened by {@code Hfr.openTask} (Table 9's INIT: budgets, deadline, counters):
 * what its calls share. Calls of one task may run on several threads; counters are guarded by this. A call
 * made outside any scope runs in a {@link OneCallTask} instead.
 */
public final class TaskState implements CallTask {

  private final String tenant;
  private final String taskId;
  private final Criticality.Level criticality;
  private final double qualityFloor;
  private final Deadline deadline;
  private final TaskLimitTracker limits;
  private volatile RetryBudget retryBudget;

  // Counters guarded by this: an uncontended monitor is cheaper than a dozen atomics allocated per task.
  private long steps;
  private int calls;
  private int succeeded;
  private int failed;
  private int escalated;
  private int degraded;
  private int attempts;
  private int retries;
  private int highRisk;
  private int unverified;
  private int duplicates;
  private List<String> failedTools;
  /** The writes the task committed, in commit order: what compensation undoes (created by the first). */
  private List<CommittedCall> committedWrites;
  /** Per (tool, arguments) write counts, the occurrence in each write's key (created by the first write). */
  private volatile WriteOccurrences occurrences;
  private volatile boolean replanRequested;
  private volatile ToolOutcome lastOutcome;
  /** The scope that opened this task, for {@code Hfr.currentTask()}. */
  private volatile TaskScope scope;
  /** The task's last saved checkpoint (§5.4), or {@code null}: an implicit task, or none saved. */
  private volatile TaskCheckpoint checkpoint;
  /** What an earlier, cut-off run of this task left unfinished, or {@code null}. */
  private volatile ResumedWrites resumed;

  /**
   * An explicit task (opened by {@code Hfr.openTask}).
   *
   * @param criticality the task's criticality, or {@code null} to use each tool's
   * @param qualityFloor q_min, or NaN for the configured floor of each call's criticality
   * @param limits the task limits with its retry budget B_t; {@code null} when budgets are switched off
   *     (the task budget is then unlimited)
   */
  public static TaskState explicit(String tenant, String taskId, Criticality.Level criticality, double qualityFloor,
      Deadline deadline, TaskLimitTracker limits) {
    return new TaskState(tenant, taskId, criticality, qualityFloor, deadline, limits);
  }

  private TaskState(String tenant, String taskId, Criticality.Level criticality, double qualityFloor, Deadline deadline,
      TaskLimitTracker limits) {
    this.tenant = tenant;
    this.taskId = taskId;
    this.criticality = criticality;
    this.qualityFloor = qualityFloor;
    this.deadline = deadline;
    this.limits = limits;
    this.retryBudget = limits != null ? limits.retryBudget() : null;
  }

  @Override
  public String tenant() { return tenant; }

  @Override
  public String taskId() { return taskId; }

  /** The task's criticality, or {@code null}. */
  @Override
  public Criticality.Level criticality() { return criticality; }

  /** q_min, or NaN. */
  @Override
  public double qualityFloor() { return qualityFloor; }

  @Override
  public Deadline deadline() { return deadline; }

  /** The limit tracker, or {@code null} when budgets are off. */
  @Override
  public TaskLimitTracker limits() { return limits; }

  /** The task's retry budget B_t: its limits', or an unlimited one when budgets are off (created on first need). */
  @Override
  public RetryBudget retryBudget() {
    RetryBudget b = retryBudget;
    if (b == null) {
      synchronized (this) {
        b = retryBudget;
        if (b == null) {
          b = RetryBudget.unlimited();
          retryBudget = b;
        }
      }
    }
    return b;
  }

  /** The retry budget if it was created, else {@code null}. */
  @Override
  public RetryBudget retryBudgetIfOpened() {
    return retryBudget;
  }

  @Override
  public boolean implicit() { return false; }

  /** The occurrence of the task's next write of {@code tool} with these arguments: part of its key. */
  @Override
  public int nextOccurrence(String tool, String argsHash) {
    WriteOccurrences o = occurrences;
    if (o == null) {
      synchronized (this) {
        o = occurrences;
        if (o == null) {
          o = new WriteOccurrences();
          occurrences = o;
        }
      }
    }
    return o.next(tool, argsHash);
  }

  /** The task's last saved checkpoint, or {@code null}. */
  TaskCheckpoint checkpoint() {
    return checkpoint;
  }

  void checkpointed(TaskCheckpoint saved) {
    checkpoint = saved;
  }

  /** The unfinished writes of the cut-off run this one resumes, or {@code null}. */
  ResumedWrites resumed() {
    return resumed;
  }

  void resumeWith(ResumedWrites writes) {
    resumed = writes;
  }

  /** The next logical step number (1, 2, ...): the call's place in the task, for evidence and approvals. */
  @Override
  public synchronized long nextStep() {
    return ++steps;
  }

  /** The last call's structured outcome, or {@code null} before the first call ends. */
  public ToolOutcome lastOutcome() {
    return lastOutcome;
  }

  /** Whether the engine asked the planner to replan (repeated action, or a verifier rejection with no new evidence). */
  public boolean replanRequested() {
    return replanRequested;
  }

  @Override
  public void requestReplan() {
    replanRequested = true;
  }

  @Override
  public synchronized void onCallStart(boolean highRiskCall) {
    calls++;
    if (highRiskCall) {
      highRisk++;
    }
  }

  /** Counts a call that ended; {@code outcome} becomes the task's last outcome. */
  @Override
  public void onCallEnd(ToolOutcome outcome, boolean unverifiedSideEffect) {
    count(outcome.tool(), outcome.status(), outcome.degraded(), outcome.attempts(), unverifiedSideEffect);
    lastOutcome = outcome;
  }

  /** The scope that opened this task. */
  public TaskScope scope() {
    return scope;
  }

  /** Called once by the scope that opens this task. */
  public void openedBy(TaskScope scope) {
    this.scope = scope;
  }

  /** Counts a whole call that ran outside the engine (see {@code TaskScope.recordOutcome}). */
  public void recordOutside(ToolOutcome outcome) {
    onCallStart(false);
    onCallEnd(outcome, outcome.sideEffect() && outcome.verificationRequired());
  }

  /** Counts a call that ended, without keeping an outcome object. */
  @Override
  public synchronized void count(String tool, ToolOutcome.Status status, boolean wasDegraded, int callAttempts,
      boolean unverifiedSideEffect) {
    attempts += callAttempts;
    retries += Math.max(0, callAttempts - 1);
    switch (status) {
      case SUCCESS:
        succeeded++;
        if (wasDegraded) {
          degraded++;
        }
        break;
      case FAILED:
        failed++;
        addFailedTool(tool);
        break;
      default:
        escalated++;
        addFailedTool(tool);
        break;
    }
    if (unverifiedSideEffect) {
      unverified++;
    }
  }

  /** Counts a side effect known to have been committed twice in this task. */
  public synchronized void recordDuplicateSideEffect() {
    duplicates++;
  }

  /**
   * One committed write of the task, kept with its invocation so its compensate method can run later.
   *
   * @param step the call's logical step
   * @param tool the tool's descriptor
   * @param invocation the call's invocation (its arguments and its compensate hook)
   * @param key the write's idempotency key
   */
  record CommittedCall(long step, ToolDescriptor tool, ToolInvocation<?> invocation, String key) {}

  /** Remembers a write whose ledger record ended the call committed: what compensation undoes. */
  synchronized void recordCommittedWrite(CommittedCall call) {
    if (committedWrites == null) {
      committedWrites = new ArrayList<>(4);
    }
    committedWrites.add(call);
  }

  /** The task's committed writes so far, in commit order. */
  synchronized List<CommittedCall> committedWrites() {
    return committedWrites == null ? List.of() : List.copyOf(committedWrites);
  }

  private void addFailedTool(String tool) {
    if (failedTools == null) {
      failedTools = new ArrayList<>(2);
    }
    if (!failedTools.contains(tool)) {
      failedTools.add(tool);
    }
  }

  /** The report so far. */
  @Override
  public synchronized TaskReport report() {
    return new TaskReport(
        tenant,
        taskId,
        calls,
        succeeded,
        failed,
        escalated,
        degraded,
        attempts,
        retries,
        limits == null ? 0 : limits.repeatedActions(),
        failedTools == null ? List.of() : failedTools,
        highRisk,
        unverified,
        duplicates,
        replanRequested,
        limits == null ? null : limits.usage());
  }
}
