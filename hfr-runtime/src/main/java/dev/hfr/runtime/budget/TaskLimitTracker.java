package dev.hfr.runtime.budget;

import dev.hfr.runtime.time.Clock;
import java.util.Objects;

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
 * The lock is this tracker's monitor: a caller that holds it may count more of the task under the same lock
 * and check with {@link #beforeToolCallHoldingLock} (HFR's engine numbers and counts each call of a task so:
 * one lock per call).
 */
public final class TaskLimitTracker {

  /** How many checks in a row may use a recent reading of the clock before one reads it. */
  public static final int EXACT_READING_EVERY = 16;

  private final TaskLimits limits;
  private final Clock clock;
  private final long startNanos;
  private final long maxWallNanos;
  /** B_t, created when the task's first retry asks for it: most tasks never retry. */
  private volatile RetryBudget retryBudget;

  /** Checks since the last one made at an exact reading of the clock. */
  private int checksAtRecentReadings;
  private int turns;
  private int toolCalls;
  private int writeActions;
  private String lastTool;
  private int sameToolStreak;
  private int repeatedActions;
  private double cost;

  /** Starts tracking a task now, on {@code clock}. */
  public TaskLimitTracker(TaskLimits limits, Clock clock) {
    this.limits = Objects.requireNonNull(limits, "limits");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.startNanos = clock.nanoTime();
    this.maxWallNanos = limits.maxWallTime() == null ? Long.MAX_VALUE : saturatedNanos(limits);
  }

  private static long saturatedNanos(TaskLimits limits) {
    try {
      return limits.maxWallTime().toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  /** When tracking started (the task opened), on the tracker's clock. */
  public long startNanos() {
    return startNanos;
  }

  /** Counts one agent turn, or names the limit that refuses it. */
  public synchronized TaskLimit onTurn() {
    TaskLimit common = commonLimit();
    if (common != null) {
      return common;
    }
    if (turns >= limits.maxTurns()) {
      return TaskLimit.TURNS;
    }
    turns++;
    return null;
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
  public synchronized TaskLimit beforeToolCall(String tool, boolean write, long nowNanos) {
    checksAtRecentReadings = 0;
    return check(tool, write, nowNanos);
  }

  /**
   * The same, with a recent reading of this tracker's clock that may be older than the call: the latest one
   * another call took (HFR's engine passes the latest reading of a fast tool whose calls it samples, instead of
   * reading the clock for each). The tracker reads its clock itself for every {@value #EXACT_READING_EVERY}th
   * check in a row made this way, so a task past its wall-time limit is refused at the latest by the
   * {@value #EXACT_READING_EVERY}th such call after it passed the limit (any call made at an exact reading, and
   * every turn, checks at once).
   */
  public synchronized TaskLimit beforeToolCallAtRecentReading(String tool, boolean write, long recentNanos) {
    return atRecentReading(tool, write, recentNanos);
  }

  /**
   * {@link #beforeToolCall(String, boolean, long)} ({@code exactReading}) or {@link #beforeToolCallAtRecentReading}
   * (not), for a caller that holds this tracker's monitor already, so that it can count the call in the same
   * critical section ({@code synchronized (tracker) { ... }}) instead of taking a second lock.
   */
  public TaskLimit beforeToolCallHoldingLock(String tool, boolean write, long nowNanos, boolean exactReading) {
    assert Thread.holdsLock(this) : "the caller must hold the tracker's monitor";
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
    if (write && writeActions >= limits.maxWriteActions()) {
      return TaskLimit.WRITE_ACTIONS;
    }
    int streak = tool.equals(lastTool) ? sameToolStreak + 1 : 1;
    if (streak > limits.maxSameToolCalls()) {
      repeatedActions++;
      return TaskLimit.SAME_TOOL_CALLS;
    }
    sameToolStreak = streak;
    lastTool = tool;
    toolCalls++;
    if (write) {
      writeActions++;
    }
    return null;
  }

  /** Adds spent cost (money or tokens, in the unit of {@code maxCost}). */
  public synchronized void recordCost(double amount) {
    if (!(amount >= 0.0) || Double.isInfinite(amount)) {
      throw new IllegalArgumentException("cost must be a finite non-negative amount, was " + amount);
    }
    cost += amount;
  }

  /** The wall-time or cost limit the task has already passed, or {@code null}: for checks between calls. */
  public synchronized TaskLimit check() {
    return commonLimit();
  }

  private TaskLimit commonLimit() {
    return commonLimit(clock.nanoTime());
  }

  private TaskLimit commonLimit(long nowNanos) {
    if (nowNanos - startNanos > maxWallNanos) {
      return TaskLimit.WALL_TIME;
    }
    if (cost >= limits.maxCost()) {
      return TaskLimit.COST;
    }
    return null;
  }

  /** The task's retry budget (B_t = {@code maxRetries}); the step budgets of its steps draw on it. */
  public RetryBudget retryBudget() {
    RetryBudget b = retryBudget;
    if (b == null) {
      synchronized (this) {
        b = retryBudget;
        if (b == null) {
          b = RetryBudget.perTask(limits.maxRetries(), limits.retryReserveForFinalStep());
          retryBudget = b;
        }
      }
    }
    return b;
  }

  /** The task's retry budget if a retry asked for it already, else {@code null} (no retry drawn yet). */
  public RetryBudget retryBudgetIfOpened() {
    return retryBudget;
  }

  /** How often repeated-action detection fired. */
  public synchronized int repeatedActions() {
    return repeatedActions;
  }

  /** The limits enforced. */
  public TaskLimits limits() {
    return limits;
  }

  /** What the task has used so far, against its limits. */
  public synchronized BudgetUsage usage() {
    return new BudgetUsage(
        turns, limits.maxTurns(),
        toolCalls, limits.maxToolCalls(),
        retryBudget == null ? 0 : retryBudget.retriesUsed(), limits.maxRetries(),
        writeActions, limits.maxWriteActions(),
        cost, limits.maxCost(),
        Math.max(0, clock.nanoTime() - startNanos), maxWallNanos,
        repeatedActions);
  }
}
