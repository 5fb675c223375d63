package dev.hfr.runtime.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TaskLimitTracker;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The running state of one task (Table 9's INIT: budgets, deadline, counters): what its calls share.
 * Calls of one task may run on several threads; counters are atomic and the rest is guarded by this.
 */
public final class TaskState {

  private final String tenant;
  private volatile String taskId;
  private final String implicitPrefix;
  private final long implicitSeq;
  private final Criticality.Level criticality;
  private final double qualityFloor;
  private final Deadline deadline;
  private final TaskLimitTracker limits;
  private final int implicitMaxRetries;
  private volatile RetryBudget retryBudget;

  private final AtomicLong steps = new AtomicLong();
  private final AtomicInteger calls = new AtomicInteger();
  private final AtomicInteger succeeded = new AtomicInteger();
  private final AtomicInteger failed = new AtomicInteger();
  private final AtomicInteger escalated = new AtomicInteger();
  private final AtomicInteger degraded = new AtomicInteger();
  private final AtomicInteger attempts = new AtomicInteger();
  private final AtomicInteger retries = new AtomicInteger();
  private final AtomicInteger highRisk = new AtomicInteger();
  private final AtomicInteger unverified = new AtomicInteger();
  private final AtomicInteger duplicates = new AtomicInteger();
  private final List<String> failedTools = new ArrayList<>(0);
  private volatile boolean replanRequested;
  private volatile ToolOutcome lastOutcome;

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
    return new TaskState(tenant, taskId, null, 0, criticality, qualityFloor, deadline, limits, -1);
  }

  /**
   * The one-call task of a call made outside any scope. Its id ({@code prefix-seq}) and retry budget are
   * only built when a failure or a write needs them, so a clean read allocates neither.
   *
   * @param maxRetries B_t, or -1 for unlimited
   */
  public static TaskState implicit(String tenant, String prefix, long seq, int maxRetries) {
    return new TaskState(tenant, null, prefix, seq, null, Double.NaN, Deadline.NONE, null, maxRetries);
  }

  private TaskState(String tenant, String taskId, String implicitPrefix, long implicitSeq, Criticality.Level criticality,
      double qualityFloor, Deadline deadline, TaskLimitTracker limits, int implicitMaxRetries) {
    this.tenant = tenant;
    this.taskId = taskId;
    this.implicitPrefix = implicitPrefix;
    this.implicitSeq = implicitSeq;
    this.criticality = criticality;
    this.qualityFloor = qualityFloor;
    this.deadline = deadline;
    this.limits = limits;
    this.implicitMaxRetries = implicitMaxRetries;
    this.retryBudget = limits != null ? limits.retryBudget() : null;
  }

  public String tenant() { return tenant; }

  public String taskId() {
    String id = taskId;
    if (id == null) {
      id = implicitPrefix + "-" + implicitSeq;
      taskId = id;
    }
    return id;
  }

  /** The task's criticality, or {@code null}. */
  public Criticality.Level criticality() { return criticality; }

  /** q_min, or NaN. */
  public double qualityFloor() { return qualityFloor; }

  public Deadline deadline() { return deadline; }

  /** The limit tracker, or {@code null} when budgets are off. */
  public TaskLimitTracker limits() { return limits; }

  /** The task's retry budget B_t, created on first need. */
  public RetryBudget retryBudget() {
    RetryBudget b = retryBudget;
    if (b == null) {
      synchronized (this) {
        b = retryBudget;
        if (b == null) {
          b = implicitMaxRetries < 0 ? RetryBudget.unlimited() : RetryBudget.perTask(implicitMaxRetries);
          retryBudget = b;
        }
      }
    }
    return b;
  }

  /** The retry budget if it was created, else {@code null}. */
  RetryBudget retryBudgetIfOpened() {
    return retryBudget;
  }

  /** Whether this is the implicit one-call task of a call made outside any scope. */
  public boolean implicit() { return implicitPrefix != null; }

  /** The next logical step number (1, 2, ...): part of each write's idempotency key. */
  long nextStep() {
    return steps.incrementAndGet();
  }

  /** The last call's structured outcome, or {@code null} before the first call ends. */
  public ToolOutcome lastOutcome() {
    return lastOutcome;
  }

  /** Whether the engine asked the planner to replan (repeated action, or a verifier rejection with no new evidence). */
  public boolean replanRequested() {
    return replanRequested;
  }

  void requestReplan() {
    replanRequested = true;
  }

  void onCallStart(boolean highRiskCall) {
    calls.incrementAndGet();
    if (highRiskCall) {
      highRisk.incrementAndGet();
    }
  }

  void onCallEnd(ToolOutcome outcome, boolean unverifiedSideEffect) {
    attempts.addAndGet(outcome.attempts());
    retries.addAndGet(Math.max(0, outcome.attempts() - 1));
    switch (outcome.status()) {
      case SUCCESS:
        succeeded.incrementAndGet();
        if (outcome.degraded()) {
          degraded.incrementAndGet();
        }
        break;
      case FAILED:
        failed.incrementAndGet();
        addFailedTool(outcome.tool());
        break;
      default:
        escalated.incrementAndGet();
        addFailedTool(outcome.tool());
        break;
    }
    if (unverifiedSideEffect) {
      unverified.incrementAndGet();
    }
    lastOutcome = outcome;
  }

  /** Counts a side effect known to have been committed twice in this task. */
  public void recordDuplicateSideEffect() {
    duplicates.incrementAndGet();
  }

  private synchronized void addFailedTool(String tool) {
    if (!failedTools.contains(tool)) {
      failedTools.add(tool);
    }
  }

  /** The report so far. */
  public synchronized TaskReport report() {
    int att = attempts.get();
    int c = calls.get();
    return new TaskReport(
        tenant,
        taskId,
        c,
        succeeded.get(),
        failed.get(),
        escalated.get(),
        degraded.get(),
        att,
        retries.get(),
        limits == null ? 0 : limits.repeatedActions(),
        failedTools,
        highRisk.get(),
        unverified.get(),
        duplicates.get(),
        replanRequested,
        limits == null ? null : limits.usage());
  }
}
