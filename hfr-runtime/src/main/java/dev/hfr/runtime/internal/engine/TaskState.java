package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TaskLimitTracker;
import dev.hfr.runtime.internal.budget.TrackerLocking;
import dev.hfr.runtime.internal.context.TaskContext;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;

/**
 * The running state of one task opened by {@code Hfr.openTask} (Table 9's INIT: budgets, deadline, counters):
 * what its calls share. Calls of one task may run on several threads. A task with limits numbers and counts
 * each call under its limit tracker's lock, in the same critical section that checks the limits ({@link
 * #admitRead}: one lock per call); without limits these counters are atomic increments. A clean read on the
 * thread that opened the task and was bound to it by the open is counted by that thread alone (a plain increment
 * of a field no other thread writes, published by a release store); anywhere else (and in a task opened bound to
 * no thread), by an atomic increment. The rest (touched when a call leaves the clean path) is guarded by this,
 * and kept in an object of its own that the first such use creates. A call made outside any scope runs in a
 * {@link OneCallTask} instead.
 */
public final class TaskState implements CallTask {

  private final TaskSpec spec;
  private final Deadline deadline;
  private final TaskLimitTracker limits;

  // Counted on every call. With limits: guarded by the tracker's lock (every step taker and counter takes it,
  // so numbers stay distinct and counts exact). Without: atomic increments of the fields (VarHandles).
  private long steps;
  private int calls;
  // Clean reads (one attempt, accepted) on the inline path: successes with one attempt each. Those made on the
  // thread that opened the task (nearly all) are counted by that thread alone, without an atomic instruction.
  /**
   * The slot of the thread that opened the task and was bound to it by the open (the one writer of {@link
   * #openerCleanReads}), or {@code null}: opened bound to no thread ({@code Hfr.newTask}).
   */
  private final TaskContext.Slot openSlot;
  private int openerCleanReads;
  private int otherCleanReads;
  /** What few tasks need (a retry, a write, a checkpoint, a failed call), created by the first that does. */
  private volatile Rare rare;
  private volatile ToolOutcome lastOutcome;
  /** The scope that opened this task, for {@code Hfr.currentTask()}. */
  private volatile TaskScope scope;
  /** The start checkpoint's state: {@link #START_DONE}, {@link #START_DUE} or {@link #START_SAVING}. */
  private volatile byte start;
  /** Set by the scope's close (release store): the opening thread no longer joins it ({@code TaskScope}). */
  private boolean closed;
  /**
   * For a task opened bound to its thread: whether the task its open replaced in that thread's slot was bound there
   * by an open of its own (not handed over). Written and read on that thread only.
   */
  private boolean replacedBindingByOpen;

  /**
   * An explicit task (opened by {@code Hfr.openTask}).
   *
   * @param spec the task's spec: tenant, id, criticality ({@code null}: each tool's), q_min (NaN: the
   *     configured floor of each call's criticality)
   * @param limits the task limits with its retry budget B_t; {@code null} when budgets are switched off
   *     (the task budget is then unlimited)
   */
  public static TaskState explicit(TaskSpec spec, Deadline deadline, TaskLimitTracker limits, TaskContext.Slot openSlot) {
    return new TaskState(spec, deadline, limits, openSlot);
  }

  private TaskState(TaskSpec spec, Deadline deadline, TaskLimitTracker limits, TaskContext.Slot openSlot) {
    this.spec = spec;
    this.deadline = deadline;
    this.limits = limits;
    this.openSlot = openSlot;
  }

  /**
   * The parts of a task that only some tasks use, kept out of {@link TaskState} so that a task that only reads
   * cleanly allocates 24 bytes less (the bytes a task allocates are a measurable part of its cost: docs/BENCHMARKS.md,
   * "Where a task's time goes").
   */
  private static final class Rare {
    /** The unlimited B_t of a task without limits, created by its first retry. */
    volatile RetryBudget retryBudget;
    /** The calls that left the clean path, counted. Guarded by the task. */
    Tally tally;
    /** The writes the task committed, in commit order: what compensation undoes. Guarded by the task. */
    List<CommittedCall> committedWrites;
    /** Per (tool, arguments) the latest write's occurrence, and what the writes ended with (created by the first write). */
    volatile Writes writes;
    /** The task's last saved checkpoint (§5.4), or {@code null}: none saved (yet). */
    volatile TaskCheckpoint checkpoint;
    /** What an earlier, cut-off run of this task left unfinished, or {@code null}. */
    volatile ResumedWrites resumed;
    volatile boolean replanRequested;
    /** High-risk calls: counted as the task's calls are (under its tracker's lock, or atomically without one). */
    int highRisk;
  }

  /** {@link #rare}, created if it was not: without a lock (a thread saving a checkpoint holds the task's monitor). */
  private Rare rare() {
    Rare r = rare;
    if (r != null) {
      return r;
    }
    Rare created = new Rare();
    return RARE.compareAndSet(this, null, created) ? created : rare;
  }

  /** The slot of the thread the task's open bound it to, or {@code null}: opened bound to no thread. */
  public TaskContext.Slot openSlot() {
    return openSlot;
  }

  /** The spec the task was opened with. */
  public TaskSpec spec() { return spec; }

  @Override
  public String tenant() { return spec.tenant(); }

  @Override
  public String taskId() { return spec.taskId(); }

  /** The task's criticality, or {@code null}. */
  @Override
  public Criticality.Level criticality() { return spec.criticality(); }

  /** q_min, or NaN. */
  @Override
  public double qualityFloor() { return spec.qualityFloor(); }

  @Override
  public Deadline deadline() { return deadline; }

  /** The limit tracker, or {@code null} when budgets are off. */
  @Override
  public TaskLimitTracker limits() { return limits; }

  /** The task's retry budget B_t: its limits', or an unlimited one when budgets are off (created on first need). */
  public RetryBudget retryBudget() {
    if (limits != null) {
      return limits.retryBudget();
    }
    Rare r = rare();
    RetryBudget b = r.retryBudget;
    if (b == null) {
      synchronized (r) {
        b = r.retryBudget;
        if (b == null) {
          b = RetryBudget.unlimited();
          r.retryBudget = b;
        }
      }
    }
    return b;
  }

  /**
   * The retry budget if it was created, else {@code null}; with limits, B_t is always reported (created here
   * if no retry asked for it yet: only a decision asks, never the clean path).
   */
  public RetryBudget retryBudgetIfOpened() {
    if (limits != null) {
      return limits.retryBudget();
    }
    Rare r = rare;
    return r == null ? null : r.retryBudget;
  }

  @Override
  public boolean implicit() { return false; }

  @Override
  public int latestOccurrence(String tool, String argsHash) {
    WriteOccurrences o = occurrences();
    return o.latest(tool, argsHash);
  }

  @Override
  public int startOccurrence(String tool, String argsHash, int after) {
    return occurrences().startAfter(tool, argsHash, after);
  }

  private WriteOccurrences occurrences() {
    return writes().occurrences();
  }

  @Override
  public WriteAnswers answers() {
    return writes().answers();
  }

  /** The task's write bookkeeping, created by its first write. */
  private Writes writes() {
    Rare r = rare();
    Writes w = r.writes;
    if (w == null) {
      synchronized (r) {
        w = r.writes;
        if (w == null) {
          w = new Writes(new WriteOccurrences(), new WriteAnswers());
          r.writes = w;
        }
      }
    }
    return w;
  }

  /** The occurrence in each write's key, and what the writes ended with, for re-calls. */
  private record Writes(WriteOccurrences occurrences, WriteAnswers answers) {}

  /** The task's last saved checkpoint, or {@code null}. */
  TaskCheckpoint checkpoint() {
    Rare r = rare;
    return r == null ? null : r.checkpoint;
  }

  void checkpointed(TaskCheckpoint saved) {
    rare().checkpoint = saved;
  }

  /** No start checkpoint to save: saved, failed, not wanted, or the task closed before it needed one. */
  static final int START_DONE = 0;
  /** The start checkpoint is to be saved when the task first needs one (its first write or escalation). */
  static final int START_DUE = 1;
  /** A thread is saving it, holding the task's monitor. */
  static final int START_SAVING = 2;
  private static final VarHandle START;
  private static final VarHandle STEPS;
  private static final VarHandle CALLS;
  private static final VarHandle HIGH_RISK;
  private static final VarHandle OPENER_CLEAN_READS;
  private static final VarHandle OTHER_CLEAN_READS;
  private static final VarHandle LAST_OUTCOME;
  private static final VarHandle SCOPE;
  private static final VarHandle CLOSED;
  private static final VarHandle RARE;

  static {
    try {
      MethodHandles.Lookup lookup = MethodHandles.lookup();
      START = lookup.findVarHandle(TaskState.class, "start", byte.class);
      STEPS = lookup.findVarHandle(TaskState.class, "steps", long.class);
      CALLS = lookup.findVarHandle(TaskState.class, "calls", int.class);
      HIGH_RISK = lookup.findVarHandle(Rare.class, "highRisk", int.class);
      OPENER_CLEAN_READS = lookup.findVarHandle(TaskState.class, "openerCleanReads", int.class);
      OTHER_CLEAN_READS = lookup.findVarHandle(TaskState.class, "otherCleanReads", int.class);
      LAST_OUTCOME = lookup.findVarHandle(TaskState.class, "lastOutcome", ToolOutcome.class);
      SCOPE = lookup.findVarHandle(TaskState.class, "scope", TaskScope.class);
      CLOSED = lookup.findVarHandle(TaskState.class, "closed", boolean.class);
      RARE = lookup.findVarHandle(TaskState.class, "rare", Rare.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** The start checkpoint is saved when the task first needs one (its first write or escalation), not now. */
  public void checkpointLater() {
    // Plain: called before the task is published (to other threads through a handover, which orders it).
    START.set(this, (byte) START_DUE);
  }

  /** The start checkpoint's state. */
  int startState() {
    return start;
  }

  /** Moves the start checkpoint's state from {@code expected} to {@code next}; false if it was not {@code expected}. */
  boolean moveStart(int expected, int next) {
    return START.compareAndSet(this, (byte) expected, (byte) next);
  }

  void startDone() {
    start = (byte) START_DONE;
  }

  /** The unfinished writes of the cut-off run this one resumes, or {@code null}. */
  ResumedWrites resumed() {
    Rare r = rare;
    return r == null ? null : r.resumed;
  }

  void resumeWith(ResumedWrites writes) {
    rare().resumed = writes;
  }

  /** The next logical step number (1, 2, ...): the call's place in the task, for evidence and approvals. */
  @Override
  public long nextStep() {
    TaskLimitTracker l = limits;
    if (l == null) {
      return (long) STEPS.getAndAdd(this, 1L) + 1;
    }
    TrackerLocking.lock(l);
    try {
      return ++steps;
    } finally {
      TrackerLocking.unlock(l);
    }
  }

  /**
   * A read's admission on the inline path, under one lock: its step number, its count, and the check of the
   * task's limits at {@code nowNanos} — an exact reading of the clock if {@code exact}, else the tool's latest
   * (an untimed, sampled call). A refused read has its step and is counted too.
   *
   * @param checkLimits whether to check the limits (budgets switched on)
   * @return the {@link Admission}
   */
  long admitRead(String tool, long nowNanos, boolean exact, boolean checkLimits) {
    TaskLimitTracker l = limits;
    if (l == null) {
      CALLS.getAndAdd(this, 1);
      return Admission.of(nextStep(), null);
    }
    TrackerLocking.lock(l);
    try {
      long step = ++steps;
      calls++;
      return Admission.of(step, checkLimits ? TrackerLocking.beforeToolCallHoldingLock(l, tool, false, nowNanos, exact) : null);
    } finally {
      TrackerLocking.unlock(l);
    }
  }

  /** The last call's structured outcome, or {@code null} before the first call ends. */
  public ToolOutcome lastOutcome() {
    return lastOutcome;
  }

  /** Whether the engine asked the planner to replan (repeated action, or a verifier rejection with no new evidence). */
  public boolean replanRequested() {
    Rare r = rare;
    return r != null && r.replanRequested;
  }

  @Override
  public void requestReplan() {
    rare().replanRequested = true;
  }

  @Override
  public void onCallStart(boolean highRiskCall) {
    TaskLimitTracker l = limits;
    if (l == null) {
      CALLS.getAndAdd(this, 1);
      if (highRiskCall) {
        HIGH_RISK.getAndAdd(rare(), 1);
      }
      return;
    }
    TrackerLocking.lock(l);
    try {
      calls++;
      if (highRiskCall) {
        rare().highRisk++;
      }
    } finally {
      TrackerLocking.unlock(l);
    }
  }

  /** Counts a clean read (one attempt, accepted) that ended on the inline path; {@code outcome} becomes the last. */
  void onCleanRead(ToolOutcome outcome) {
    TaskContext.Slot opener = openSlot;
    if (opener != null && opener.owner() == Thread.currentThread()) {
      // The field's only writer reads its own last write; the release store publishes the count to reports.
      OPENER_CLEAN_READS.setRelease(this, openerCleanReads + 1);
    } else {
      OTHER_CLEAN_READS.getAndAdd(this, 1);
    }
    LAST_OUTCOME.setRelease(this, outcome); // no fence: a reader sees it with the count, or the one before
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

  /**
   * Whether the task's scope was closed. Work handed over to other threads still joins it; the thread that opened
   * it no longer does, even if the scope was closed on another thread ({@code TaskScope}).
   */
  public boolean closed() {
    return (boolean) CLOSED.getAcquire(this);
  }

  /**
   * Marks the task closed, once: {@code false} if it was already. A release store, no fence: a call racing the
   * close on another thread may join it or not, as with any close; one that follows it (a happens-before edge)
   * does not.
   */
  public boolean close() {
    if (closed()) {
      return false;
    }
    CLOSED.setRelease(this, true);
    return true;
  }

  /** Whether the binding this task's open replaced on its thread was made by an open too (see the field). */
  public boolean replacedBindingByOpen() {
    return replacedBindingByOpen;
  }

  public void replacedBindingByOpen(boolean byOpen) {
    replacedBindingByOpen = byOpen;
  }

  /** Called once by the scope that opens this task. */
  public void openedBy(TaskScope scope) {
    SCOPE.setRelease(this, scope); // before the task is published: no fence needed
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
    Tally t = tally();
    t.attempts += callAttempts;
    t.retries += Math.max(0, callAttempts - 1);
    switch (status) {
      case SUCCESS:
        t.succeeded++;
        if (wasDegraded) {
          t.degraded++;
        }
        break;
      case FAILED:
        t.failed++;
        t.addFailedTool(tool);
        break;
      default:
        t.escalated++;
        t.addFailedTool(tool);
        break;
    }
    if (unverifiedSideEffect) {
      t.unverified++;
    }
  }

  /** Counts a side effect known to have been committed twice in this task. */
  public synchronized void recordDuplicateSideEffect() {
    tally().duplicates++;
  }

  /** The tally, created on first need. Under this. */
  private Tally tally() {
    Rare r = rare();
    Tally t = r.tally;
    if (t == null) {
      t = new Tally();
      r.tally = t;
    }
    return t;
  }

  /** The counts of the calls that left the clean path (a clean read is counted by its own fields). */
  private static final class Tally {
    int succeeded;
    int failed;
    int escalated;
    int degraded;
    int attempts;
    int retries;
    int unverified;
    int duplicates;
    List<String> failedTools;

    void addFailedTool(String tool) {
      if (failedTools == null) {
        failedTools = new ArrayList<>(2);
      }
      if (!failedTools.contains(tool)) {
        failedTools.add(tool);
      }
    }
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
    Rare r = rare();
    if (r.committedWrites == null) {
      r.committedWrites = new ArrayList<>(4);
    }
    for (CommittedCall known : r.committedWrites) {
      if (known.key().equals(call.key())) {
        return; // a re-call of a write already listed: one write, undone once
      }
    }
    r.committedWrites.add(call);
  }

  /** The task's committed writes so far, in commit order. */
  synchronized List<CommittedCall> committedWrites() {
    Rare r = rare;
    return r == null || r.committedWrites == null ? List.of() : List.copyOf(r.committedWrites);
  }

  /** The tally of a task whose calls were all clean: never written. */
  private static final Tally NO_TALLY = new Tally();

  /** The report so far. */
  @Override
  public synchronized TaskReport report() {
    int clean = (int) OPENER_CLEAN_READS.getAcquire(this) + (int) OTHER_CLEAN_READS.getVolatile(this);
    int callsNow;
    int highRiskNow;
    if (limits == null) {
      callsNow = (int) CALLS.getVolatile(this);
      Rare r = rare;
      highRiskNow = r == null ? 0 : (int) HIGH_RISK.getVolatile(r);
    } else {
      TrackerLocking.lock(limits);
      try {
        callsNow = calls;
        Rare r = rare;
        highRiskNow = r == null ? 0 : r.highRisk;
      } finally {
        TrackerLocking.unlock(limits);
      }
    }
    Rare r = rare;
    Tally t = r != null && r.tally != null ? r.tally : NO_TALLY;
    return new TaskReport(
        spec.tenant(),
        spec.taskId(),
        callsNow,
        t.succeeded + clean,
        t.failed,
        t.escalated,
        t.degraded,
        t.attempts + clean,
        t.retries,
        limits == null ? 0 : limits.repeatedActions(),
        t.failedTools == null ? List.of() : t.failedTools,
        highRiskNow,
        t.unverified,
        t.duplicates,
        r != null && r.replanRequested,
        limits == null ? null : limits.usage());
  }
}
