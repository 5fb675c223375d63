package dev.hfr.runtime.budget;

import dev.hfr.runtime.internal.budget.TrackerLocking;
import dev.hfr.runtime.time.Clock;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.locks.LockSupport;

/**
 * Enforces one task's {@link TaskLimits} and reports its usage (the {@code budget_usage} of the task
 * report). Call {@link #onTurn()} per agent turn and {@link #beforeToolCall} once per <em>logical</em>
 * tool call (retries are counted by the task's {@link #retryBudget()}, not here: a retry of the same
 * step is not a repeated action). Each returns the limit the task ran into, or {@code null}; a refused
 * turn or call is not counted.
 *
 * <p>Repeated-action detection: calling the same tool more than {@code maxSameToolCalls} times in a row
 * is refused with {@link TaskLimit#SAME_TOOL_CALLS} and counted in {@link #repeatedActions()} — the
 * engine stops or replans.
 *
 * <p>Thread-safe (a task may call tools in parallel); the checks take a per-task lock and never allocate.
 * HFR's engine takes that lock itself to number, count and check each call of a task in one critical section
 * (one lock per call), through an internal access ({@code internal.budget.TrackerLocking}): not API.
 *
 * <p>The lock is a flag taken by one compare-and-set and given back by a release store, not a monitor or a
 * {@code java.util.concurrent} lock: their release is a second atomic instruction (a monitor's exit) or a
 * volatile write (a full fence on x86), which costs as much as the take, and every call of a task pays both.
 * The critical sections are a few field updates that never wait, so a thread that finds the lock taken spins
 * briefly, then yields, then parks for a microsecond at a time.
 */
public final class TaskLimitTracker {

  /** How many checks in a row may use a recent reading of the clock before one reads it. */
  public static final int EXACT_READING_EVERY = 16;

  private final TaskLimits limits;
  private final Clock clock;
  private final long startNanos;
  /**
   * What most tasks never touch (turns, writes, cost, repeated actions, B_t), created by the first that does: a
   * tracker is then 48 bytes instead of 72 (the bytes of a task are a measurable part of its open: docs/BENCHMARKS.md).
   */
  private volatile Seldom seldom;

  /** 1 while a thread holds the lock (see the class comment), else 0. */
  private volatile byte locked;
  /** Checks since the last one made at an exact reading of the clock. */
  private byte checksAtRecentReadings;
  private int toolCalls;
  private String lastTool;
  private int sameToolStreak;

  private static final VarHandle LOCKED;
  private static final VarHandle SELDOM;
  /** Spins before a waiting thread starts to yield, then yields before it starts to park. */
  private static final int SPINS = 64;
  private static final int YIELDS = 64;

  static {
    try {
      LOCKED = MethodHandles.lookup().findVarHandle(TaskLimitTracker.class, "locked", byte.class);
      SELDOM = MethodHandles.lookup().findVarHandle(TaskLimitTracker.class, "seldom", Seldom.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
    TrackerLocking.install(new TrackerLocking.Access() {
      @Override
      public void lock(TaskLimitTracker tracker) {
        tracker.lock();
      }

      @Override
      public void unlock(TaskLimitTracker tracker) {
        tracker.unlock();
      }

      @Override
      public TaskLimit beforeToolCallHoldingLock(TaskLimitTracker tracker, String tool, boolean write, long nowNanos,
          boolean exactReading) {
        return tracker.beforeToolCallHoldingLock(tool, write, nowNanos, exactReading);
      }
    });
  }

  /** The counts few tasks use. The counts are guarded by the tracker's lock. */
  private static final class Seldom {
    int turns;
    int writeActions;
    int repeatedActions;
    double cost;
    /** B_t, created when the task's first retry asks for it: most tasks never retry. */
    volatile RetryBudget retryBudget;
  }

  /** {@link #seldom}, created if it was not (without a lock: a thread may hold the tracker's). */
  private Seldom seldom() {
    Seldom s = seldom;
    if (s != null) {
      return s;
    }
    Seldom created = new Seldom();
    return SELDOM.compareAndSet(this, null, created) ? created : seldom;
  }

  /** Starts tracking a task now, on {@code clock}. */
  public TaskLimitTracker(TaskLimits limits, Clock clock) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.startNanos = clock.nanoTime();
  }

  /** When tracking started (the task opened), on the tracker's clock. */
  public long startNanos() {
    return startNanos;
  }

  /** Counts one agent turn, or names the limit that refuses it. */
  public TaskLimit onTurn() {
    lock();
    try {
      TaskLimit common = commonLimit();
      if (common != null) {
        return common;
      }
      Seldom s = seldom();
      if (s.turns >= limits.maxTurns()) {
        return TaskLimit.TURNS;
      }
      s.turns++;
      return null;
    } finally {
      unlock();
    }
  }

  /**
   * Counts one logical call of {@code tool}, or names the limit that refuses it.
   *
   * @param tool the tool's name
   * @param write whether the tool has side effects (R1 and above)
   */
  public TaskLimit beforeToolCall(String tool, boolean write) {
    return beforeToolCall(tool, write, clock.nanoTime());
  }

  /**
   * The same, with a reading of this tracker's clock the caller already took (it saves one: on a
   * virtualised host a reading costs as much as the rest of this check).
   */
  public TaskLimit beforeToolCall(String tool, boolean write, long nowNanos) {
    lock();
    try {
      checksAtRecentReadings = 0;
      return check(tool, write, nowNanos);
    } finally {
      unlock();
    }
  }

  /**
   * The same, with a recent reading of this tracker's clock that may be older than the call: the latest one
   * another call took (HFR's engine passes the latest reading of a fast tool whose calls it samples, instead of
   * reading the clock for each). The tracker reads its clock itself for every {@value #EXACT_READING_EVERY}th
   * check in a row made this way, so a task past its wall-time limit is refused at the latest by the
   * {@value #EXACT_READING_EVERY}th such call after it passed the limit (any call made at an exact reading, and
   * every turn, checks at once).
   */
  public TaskLimit beforeToolCallAtRecentReading(String tool, boolean write, long recentNanos) {
    lock();
    try {
      return atRecentReading(tool, write, recentNanos);
    } finally {
      unlock();
    }
  }

  /**
   * {@link #beforeToolCall(String, boolean, long)} ({@code exactReading}) or {@link #beforeToolCallAtRecentReading}
   * (not), for a caller that holds this tracker's lock already ({@link #lock()}), so that it can count the call in
   * the same critical section instead of taking the lock a second time. The engine's, not API: it reaches this
   * through {@link TrackerLocking}.
   */
  TaskLimit beforeToolCallHoldingLock(String tool, boolean write, long nowNanos, boolean exactReading) {
    assert locked == 1 : "the caller must hold the tracker's lock";
    if (exactReading) {
      checksAtRecentReadings = 0;
      return check(tool, write, nowNanos);
    }
    return atRecentReading(tool, write, nowNanos);
  }

  private TaskLimit atRecentReading(String tool, boolean write, long recentNanos) {
    long now = recentNanos;
    if (++checksAtRecentReadings >= EXACT_READING_EVERY) {
      checksAtRecentReadings = 0;
      now = clock.nanoTime();
    }
    return check(tool, write, now);
  }

  private TaskLimit check(String tool, boolean write, long nowNanos) {
    Objects.requireNonNull(tool, "tool");
    TaskLimit common = commonLimit(nowNanos);
    if (common != null) {
      return common;
    }
    if (toolCalls >= limits.maxToolCalls()) {
      return TaskLimit.TOOL_CALLS;
    }
    if (write && (seldom == null ? 0 : seldom.writeActions) >= limits.maxWriteActions()) {
      return TaskLimit.WRITE_ACTIONS;
    }
    int streak = tool.equals(lastTool) ? sameToolStreak + 1 : 1;
    if (streak > limits.maxSameToolCalls()) {
      seldom().repeatedActions++;
      return TaskLimit.SAME_TOOL_CALLS;
    }
    sameToolStreak = streak;
    lastTool = tool;
    toolCalls++;
    if (write) {
      seldom().writeActions++;
    }
    return null;
  }

  /** Adds spent cost (money or tokens, in the unit of {@code maxCost}). */
  public void recordCost(double amount) {
    if (!(amount >= 0.0) || Double.isInfinite(amount)) {
      throw new IllegalArgumentException("cost must be a finite non-negative amount, was " + amount);
    }
    lock();
    try {
      seldom().cost += amount;
    } finally {
      unlock();
    }
  }

  /** The wall-time or cost limit the task has already passed, or {@code null}: for checks between calls. */
  public TaskLimit check() {
    lock();
    try {
      return commonLimit();
    } finally {
      unlock();
    }
  }

  private TaskLimit commonLimit() {
    return commonLimit(clock.nanoTime());
  }

  private TaskLimit commonLimit(long nowNanos) {
    if (nowNanos - startNanos > limits.maxWallNanos()) {
      return TaskLimit.WALL_TIME;
    }
    Seldom s = seldom;
    if (s != null ? s.cost >= limits.maxCost() : limits.maxCost() <= 0.0) {
      return TaskLimit.COST;
    }
    return null;
  }

  /** The task's retry budget (B_t = {@code maxRetries}); the step budgets of its steps draw on it. */
  public RetryBudget retryBudget() {
    Seldom s = seldom();
    RetryBudget b = s.retryBudget;
    if (b == null) {
      synchronized (s) {
        b = s.retryBudget;
        if (b == null) {
          b = RetryBudget.perTask(limits.maxRetries(), limits.retryReserveForFinalStep());
          s.retryBudget = b;
        }
      }
    }
    return b;
  }

  /** The task's retry budget if a retry asked for it already, else {@code null} (no retry drawn yet). */
  public RetryBudget retryBudgetIfOpened() {
    Seldom s = seldom;
    return s == null ? null : s.retryBudget;
  }

  /** How often repeated-action detection fired. */
  public int repeatedActions() {
    lock();
    try {
      Seldom s = seldom;
      return s == null ? 0 : s.repeatedActions;
    } finally {
      unlock();
    }
  }

  /** The limits enforced. */
  public TaskLimits limits() {
    return limits;
  }

  /** What the task has used so far, against its limits. */
  public BudgetUsage usage() {
    lock();
    try {
      Seldom s = seldom;
      RetryBudget retries = s == null ? null : s.retryBudget;
      return new BudgetUsage(
          s == null ? 0 : s.turns, limits.maxTurns(),
          toolCalls, limits.maxToolCalls(),
          retries == null ? 0 : retries.retriesUsed(), limits.maxRetries(),
          s == null ? 0 : s.writeActions, limits.maxWriteActions(),
          s == null ? 0.0 : s.cost, limits.maxCost(),
          Math.max(0, clock.nanoTime() - startNanos), limits.maxWallNanos(),
          s == null ? 0 : s.repeatedActions);
    } finally {
      unlock();
    }
  }

  /**
   * Takes this tracker's lock, for a caller that counts more of its task in the same critical section as a check
   * ({@link #beforeToolCallHoldingLock}); give it back with {@link #unlock()} in a {@code finally}. Not
   * reentrant: no other method of this tracker may be called while holding it. The engine reaches this through
   * {@link TrackerLocking}.
   */
  void lock() {
    if (!LOCKED.compareAndSet(this, (byte) 0, (byte) 1)) {
      lockContended();
    }
  }

  /** Gives back the lock {@link #lock()} took. */
  void unlock() {
    LOCKED.setRelease(this, (byte) 0);
  }

  private void lockContended() {
    for (int tries = 0; ; tries++) {
      if (locked == 0 && LOCKED.compareAndSet(this, (byte) 0, (byte) 1)) {
        return;
      }
      if (tries < SPINS) {
        Thread.onSpinWait();
      } else if (tries < SPINS + YIELDS) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(1_000L); // the holder was descheduled mid-update
      }
    }
  }
}
