package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.TaskLimitTracker;
import java.util.List;

/**
 * The task of one call made outside any scope: no limits, no deadline, no criticality of its own, one step,
 * and a report of that call alone. Created only when the call leaves the clean path (a failure, a rejection,
 * a write); its id ({@code prefix-seq}) is numbered only when something asks for it (a published decision,
 * an escalation, a write's key); its retry budget is its one step's, which the call counts itself. A read
 * outside a scope makes it only when something asks for it, so a read retried and then answered makes none.
 *
 * <p>Used by its one call, on the thread running it at the time (the drivers hand a call between threads
 * with a happens-before edge), so nothing here is synchronised.
 */
final class OneCallTask implements CallTask {

  private static final int STARTED = 1;
  private static final int HIGH_RISK = 2;
  private static final int ENDED = 4;
  private static final int DEGRADED = 8;
  private static final int UNVERIFIED = 16;
  private static final int REPLAN = 32;

  private final ImplicitTasks source;
  private String taskId;
  /** The call's tool, status and attempts once it ended (for the report). */
  private String tool;
  private ToolOutcome.Status status;
  private int attempts;
  private int flags;

  OneCallTask(ImplicitTasks source) {
    this.source = source;
  }

  @Override
  public String tenant() {
    return source.tenant();
  }

  @Override
  public String taskId() {
    String id = taskId;
    if (id == null) {
      id = source.nextId();
      taskId = id;
    }
    return id;
  }

  @Override
  public Criticality.Level criticality() {
    return null;
  }

  @Override
  public double qualityFloor() {
    return Double.NaN;
  }

  @Override
  public Deadline deadline() {
    return Deadline.NONE;
  }

  @Override
  public TaskLimitTracker limits() {
    return null;
  }

  /** Where the task came from: its tenant, its budget B_t and its id's numbering. */
  ImplicitTasks source() {
    return source;
  }

  @Override
  public boolean implicit() {
    return true;
  }

  @Override
  public long nextStep() {
    return 1;
  }

  /** The task makes one call: no write came before it. */
  @Override
  public int latestOccurrence(String tool, String argsHash) {
    return -1;
  }

  @Override
  public int startOccurrence(String tool, String argsHash, int after) {
    return after + 1;
  }

  @Override
  public WriteAnswers answers() {
    return null;
  }

  @Override
  public void onCallStart(boolean highRiskCall) {
    flags |= highRiskCall ? STARTED | HIGH_RISK : STARTED;
  }

  @Override
  public void onCallEnd(ToolOutcome outcome, boolean unverifiedSideEffect) {
    count(outcome.tool(), outcome.status(), outcome.degraded(), outcome.attempts(), unverifiedSideEffect);
  }

  @Override
  public void count(String tool, ToolOutcome.Status status, boolean wasDegraded, int callAttempts,
      boolean unverifiedSideEffect) {
    this.tool = tool;
    this.status = status;
    this.attempts = callAttempts;
    flags |= ENDED | (wasDegraded ? DEGRADED : 0) | (unverifiedSideEffect ? UNVERIFIED : 0);
  }

  @Override
  public void requestReplan() {
    flags |= REPLAN;
  }

  @Override
  public TaskReport report() {
    boolean ended = (flags & ENDED) != 0;
    boolean succeeded = ended && status == ToolOutcome.Status.SUCCESS;
    boolean failed = ended && status == ToolOutcome.Status.FAILED;
    boolean escalated = ended && !succeeded && !failed;
    return new TaskReport(
        tenant(),
        taskId(),
        (flags & STARTED) != 0 ? 1 : 0,
        succeeded ? 1 : 0,
        failed ? 1 : 0,
        escalated ? 1 : 0,
        succeeded && (flags & DEGRADED) != 0 ? 1 : 0,
        attempts,
        Math.max(0, attempts - 1),
        0,
        failed || escalated ? List.of(tool) : List.of(),
        (flags & HIGH_RISK) != 0 ? 1 : 0,
        (flags & UNVERIFIED) != 0 ? 1 : 0,
        0,
        (flags & REPLAN) != 0,
        null);
  }
}
