package dev.hfr.runtime.budget;

import java.time.Duration;
import java.util.Objects;

/**
 * The article's task limits, as an immutable value: max turns, tool calls, same-tool calls in a row,
 * retries, wall time, cost and write actions. A limit that is not set is unlimited. Enforced by a
 * {@link TaskLimitTracker}, one per task.
 */
public final class TaskLimits {

  /** Unlimited, as an int. */
  public static final int UNLIMITED = Integer.MAX_VALUE;

  private static final TaskLimits NONE = builder().build();
  private static final TaskLimits DEFAULTS = builder().maxRetries(10).maxSameToolCalls(5).build();

  private final int maxTurns;
  private final int maxToolCalls;
  private final int maxSameToolCalls;
  private final int maxRetries;
  private final int retryReserveForFinalStep;
  private final Duration maxWallTime;
  /** {@link #maxWallTime} in nanoseconds ({@code Long.MAX_VALUE}: none, or longer than a long holds): computed once, not per task. */
  private final long maxWallNanos;
  private final double maxCost;
  private final int maxWriteActions;

  private TaskLimits(Builder b) {
    this.maxTurns = b.maxTurns;
    this.maxToolCalls = b.maxToolCalls;
    this.maxSameToolCalls = b.maxSameToolCalls;
    this.maxRetries = b.maxRetries;
    this.retryReserveForFinalStep = b.retryReserveForFinalStep;
    this.maxWallTime = b.maxWallTime;
    this.maxWallNanos = saturatedNanos(b.maxWallTime);
    this.maxCost = b.maxCost;
    this.maxWriteActions = b.maxWriteActions;
  }

  /** No limit at all. */
  public static TaskLimits unlimited() {
    return NONE;
  }

  /**
   * The sourced defaults: 10 retries per task (paper §5.2 {@code max_retries_per_task}) and 5 calls of
   * the same tool in a row (the article's repeated-action example); everything else unlimited.
   */
  public static TaskLimits defaults() {
    return DEFAULTS;
  }

  /** A builder with every limit unset (unlimited). */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder starting from these limits. */
  public Builder toBuilder() {
    return new Builder(this);
  }

  public int maxTurns() { return maxTurns; }

  public int maxToolCalls() { return maxToolCalls; }

  /** Calls of one tool in a row before the next is a repeated action. */
  public int maxSameToolCalls() { return maxSameToolCalls; }

  /** The task's retry budget B_t. */
  public int maxRetries() { return maxRetries; }

  /** Retries of {@link #maxRetries()} that only the task's final step may use (§4.8); 0 by default. */
  public int retryReserveForFinalStep() { return retryReserveForFinalStep; }

  /** {@code null} when unlimited. */
  public Duration maxWallTime() { return maxWallTime; }

  /** The wall-time limit in nanoseconds; {@code Long.MAX_VALUE} when there is none (or it is longer than that). */
  long maxWallNanos() { return maxWallNanos; }

  private static long saturatedNanos(Duration wallTime) {
    if (wallTime == null) {
      return Long.MAX_VALUE;
    }
    try {
      return wallTime.toNanos();
    } catch (ArithmeticException tooLong) {
      return Long.MAX_VALUE;
    }
  }

  /** {@link Double#POSITIVE_INFINITY} when unlimited. */
  public double maxCost() { return maxCost; }

  public int maxWriteActions() { return maxWriteActions; }

  @Override
  public String toString() {
    return "TaskLimits[turns " + show(maxTurns) + ", toolCalls " + show(maxToolCalls) + ", sameToolCalls " + show(maxSameToolCalls)
        + ", retries " + show(maxRetries) + " (final-step reserve " + retryReserveForFinalStep + "), wallTime " + (maxWallTime == null ? "unlimited" : maxWallTime) + ", cost "
        + (Double.isInfinite(maxCost) ? "unlimited" : maxCost) + ", writeActions " + show(maxWriteActions) + "]";
  }

  private static String show(int limit) {
    return limit == UNLIMITED ? "unlimited" : Integer.toString(limit);
  }

  /** Builds {@link TaskLimits}; each setter checks its argument and names it when it refuses. */
  public static final class Builder {
    private int maxTurns = UNLIMITED;
    private int maxToolCalls = UNLIMITED;
    private int maxSameToolCalls = UNLIMITED;
    private int maxRetries = UNLIMITED;
    private int retryReserveForFinalStep;
    private Duration maxWallTime;
    private double maxCost = Double.POSITIVE_INFINITY;
    private int maxWriteActions = UNLIMITED;

    private Builder() {}

    private Builder(TaskLimits l) {
      this.maxTurns = l.maxTurns;
      this.maxToolCalls = l.maxToolCalls;
      this.maxSameToolCalls = l.maxSameToolCalls;
      this.maxRetries = l.maxRetries;
      this.retryReserveForFinalStep = l.retryReserveForFinalStep;
      this.maxWallTime = l.maxWallTime;
      this.maxCost = l.maxCost;
      this.maxWriteActions = l.maxWriteActions;
    }

    public Builder maxTurns(int turns) {
      this.maxTurns = atLeast(turns, 1, "maxTurns");
      return this;
    }

    public Builder maxToolCalls(int calls) {
      this.maxToolCalls = atLeast(calls, 1, "maxToolCalls");
      return this;
    }

    public Builder maxSameToolCalls(int calls) {
      this.maxSameToolCalls = atLeast(calls, 1, "maxSameToolCalls");
      return this;
    }

    /** Zero is allowed: no retry at all. */
    public Builder maxRetries(int retries) {
      this.maxRetries = atLeast(retries, 0, "maxRetries");
      return this;
    }

    /** Retries held back for the task's final step (its commit or final verification). */
    public Builder retryReserveForFinalStep(int retries) {
      this.retryReserveForFinalStep = atLeast(retries, 0, "retryReserveForFinalStep");
      return this;
    }

    public Builder maxWallTime(Duration wallTime) {
      Objects.requireNonNull(wallTime, "maxWallTime");
      if (wallTime.isNegative() || wallTime.isZero()) {
        throw new IllegalArgumentException("maxWallTime must be positive, was " + wallTime);
      }
      this.maxWallTime = wallTime;
      return this;
    }

    public Builder maxCost(double cost) {
      if (!(cost >= 0.0) || Double.isNaN(cost)) {
        throw new IllegalArgumentException("maxCost must not be negative or NaN, was " + cost);
      }
      this.maxCost = cost;
      return this;
    }

    /** Zero is allowed: a read-only task. */
    public Builder maxWriteActions(int writes) {
      this.maxWriteActions = atLeast(writes, 0, "maxWriteActions");
      return this;
    }

    public TaskLimits build() {
      if (retryReserveForFinalStep > maxRetries) {
        throw new IllegalArgumentException(
            "retryReserveForFinalStep (" + retryReserveForFinalStep + ") must not exceed maxRetries (" + maxRetries + ")");
      }
      return new TaskLimits(this);
    }

    private static int atLeast(int value, int min, String name) {
      if (value < min) {
        throw new IllegalArgumentException(name + " must be at least " + min + ", was " + value);
      }
      return value;
    }
  }
}
