package dev.hfr.runtime.budget;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * A task's retry budget B_t and the per-step attempt limit of each of its steps (paper §4.3).
 *
 * <p>The first attempt of a step is free; every further attempt is a retry and is charged to both the
 * step ({@code maxAttemptsPerStep} counts <em>attempts</em>, the first included, as §5.2 requires) and
 * the task. So a task of n steps never makes more than {@code min(n·maxAttemptsPerStep, n + B_t)}
 * attempts (Proposition 1, with {@code maxAttemptsPerStep = 1 + B_s}).
 *
 * <p>A part of B_t can be held back for the final step (paper §4.8: earlier steps must not spend
 * everything and leave the final commit or verification without a retry): ordinary steps stop at
 * {@code B_t − reserve}, a step opened with {@link #openFinalStep} may use all of B_t.
 *
 * <p>Thread-safe: steps of one task may run in parallel and share the task's budget. Charging is
 * lock-free and does not allocate.
 */
public final class RetryBudget {

  private final int maxRetriesPerTask;
  private final int reserveForFinalStep;
  // Field updaters rather than AtomicInteger objects: a budget and its steps are made per task and per
  // failing step (an implicit task per failing call outside a scope), so each counter would be one more
  // allocation on the failure path.
  private static final AtomicIntegerFieldUpdater<RetryBudget> RETRIES_USED =
      AtomicIntegerFieldUpdater.newUpdater(RetryBudget.class, "retriesUsed");
  private static final AtomicIntegerFieldUpdater<Step> ATTEMPTS = AtomicIntegerFieldUpdater.newUpdater(Step.class, "attempts");

  private volatile int retriesUsed;

  private RetryBudget(int maxRetriesPerTask, int reserveForFinalStep) {
    this.maxRetriesPerTask = maxRetriesPerTask;
    this.reserveForFinalStep = reserveForFinalStep;
  }

  /** A task budget of {@code maxRetriesPerTask} retries (B_t); zero allows no retry at all. */
  public static RetryBudget perTask(int maxRetriesPerTask) {
    return perTask(maxRetriesPerTask, 0);
  }

  /**
   * A task budget of {@code maxRetriesPerTask} retries (B_t) of which {@code reserveForFinalStep} only the
   * final step may use.
   */
  public static RetryBudget perTask(int maxRetriesPerTask, int reserveForFinalStep) {
    if (maxRetriesPerTask < 0) {
      throw new IllegalArgumentException("maxRetriesPerTask must not be negative, was " + maxRetriesPerTask);
    }
    if (reserveForFinalStep < 0 || reserveForFinalStep > maxRetriesPerTask) {
      throw new IllegalArgumentException("reserveForFinalStep must be within [0, maxRetriesPerTask] = [0, " + maxRetriesPerTask
          + "], was " + reserveForFinalStep);
    }
    return new RetryBudget(maxRetriesPerTask, reserveForFinalStep);
  }

  /** A budget that never runs out at task level (only the per-step limits apply): the "HFR − budget" ablation. */
  public static RetryBudget unlimited() {
    return new RetryBudget(Integer.MAX_VALUE, 0);
  }

  /**
   * Opens a logical step whose first attempt is about to be made — or has just failed: a step that
   * succeeds at once needs no counter, so the engine may open it lazily on the first failure and keep
   * the success path free of allocation.
   *
   * @param maxAttemptsPerStep total attempts of the step, the first included (1 + B_s); at least 1
   */
  public Step openStep(int maxAttemptsPerStep) {
    return new Step(checkAttempts(maxAttemptsPerStep), maxRetriesPerTask - reserveForFinalStep, false);
  }

  /**
   * Opens the task's final step (its commit or final verification), which may also use the reserve.
   *
   * @param maxAttemptsPerStep total attempts of the step, the first included (1 + B_s); at least 1
   */
  public Step openFinalStep(int maxAttemptsPerStep) {
    return new Step(checkAttempts(maxAttemptsPerStep), maxRetriesPerTask, true);
  }

  private static int checkAttempts(int maxAttemptsPerStep) {
    if (maxAttemptsPerStep < 1) {
      throw new IllegalArgumentException("maxAttemptsPerStep counts attempts, the first included, and must be at least 1, was "
          + maxAttemptsPerStep);
    }
    return maxAttemptsPerStep;
  }

  /** Retries held back for the final step. */
  public int reserveForFinalStep() {
    return reserveForFinalStep;
  }

  /** B_t. */
  public int maxRetriesPerTask() {
    return maxRetriesPerTask;
  }

  /** Retries charged so far. */
  public int retriesUsed() {
    return retriesUsed;
  }

  /** Retries still available to the task. */
  public int remaining() {
    return maxRetriesPerTask - retriesUsed;
  }

  private boolean tryChargeTask(int limit) {
    while (true) {
      int used = retriesUsed;
      if (used >= limit) {
        return false;
      }
      if (RETRIES_USED.compareAndSet(this, used, used + 1)) {
        return true;
      }
    }
  }

  @Override
  public String toString() {
    return "RetryBudget[" + retriesUsed + "/" + maxRetriesPerTask + " retries]";
  }

  /** The outcome of asking for one more attempt of a step. */
  public enum Charge {
    /** Granted: the retry is counted against the step and the task. */
    GRANTED,
    /** The step has made all its attempts. */
    STEP_EXHAUSTED,
    /** The task has no retries left. */
    TASK_EXHAUSTED
  }

  /** The attempt counter of one logical step. Thread-safe. */
  public final class Step {
    private final int maxAttempts;
    private final int taskLimit;
    private final boolean finalStep;
    private volatile int attempts = 1;

    private Step(int maxAttempts, int taskLimit, boolean finalStep) {
      this.maxAttempts = maxAttempts;
      this.taskLimit = taskLimit;
      this.finalStep = finalStep;
    }

    /** Charges one retry to this step and the task, or says which of the two is exhausted (nothing is charged then). */
    public Charge tryChargeRetry() {
      while (true) {
        int made = attempts;
        if (made >= maxAttempts) {
          return Charge.STEP_EXHAUSTED;
        }
        if (ATTEMPTS.compareAndSet(this, made, made + 1)) {
          break;
        }
      }
      if (tryChargeTask(taskLimit)) {
        return Charge.GRANTED;
      }
      ATTEMPTS.decrementAndGet(this);
      return Charge.TASK_EXHAUSTED;
    }

    /**
     * Charges one attempt on a degradation rung to the task only: the ladder has its own allowance (each
     * rung is tried at most once per call, in order), so spent retries of the step never make a rung
     * unreachable; the task's budget B_t still bounds the whole task.
     *
     * @return {@link Charge#GRANTED} or {@link Charge#TASK_EXHAUSTED}
     */
    public Charge tryChargeRung() {
      return tryChargeTask(taskLimit) ? Charge.GRANTED : Charge.TASK_EXHAUSTED;
    }

    /**
     * Gives back a retry charged by {@link #tryChargeRetry()} that was then not made (a later check, such as
     * the tenant budget, refused it).
     */
    public void refundRetry() {
      if (attempts <= 1) {
        throw new IllegalStateException("no retry of this step to refund");
      }
      ATTEMPTS.decrementAndGet(this);
      RETRIES_USED.decrementAndGet(RetryBudget.this);
    }

    /** Attempts made or granted so far, the first included. */
    public int attempts() {
      return attempts;
    }

    /** Total attempts this step may make. */
    public int maxAttempts() {
      return maxAttempts;
    }

    /** Whether the step could still make another attempt (the task budget permitting). */
    public boolean hasAttemptsLeft() {
      return attempts < maxAttempts;
    }

    /** Whether either the step or the task (as far as this step may draw on it) has run out, without charging anything. */
    public boolean exhausted() {
      return !hasAttemptsLeft() || retriesUsed >= taskLimit;
    }

    /** Whether this is the task's final step, which may use the reserve. */
    public boolean isFinal() {
      return finalStep;
    }

    /** The task budget this step draws on. */
    public RetryBudget task() {
      return RetryBudget.this;
    }

    @Override
    public String toString() {
      return "Step[" + attempts + "/" + maxAttempts + " attempts]";
    }
  }
}
