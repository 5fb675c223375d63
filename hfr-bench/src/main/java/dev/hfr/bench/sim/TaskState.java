package dev.hfr.bench.sim;

import dev.hfr.annotations.Fault;
import dev.hfr.bench.metrics.TaskResult;
import dev.hfr.bench.workload.TaskPlan;
import dev.hfr.runtime.escalate.EvidenceBundle;
import java.util.Arrays;

/**
 * The bookkeeping of one running simulated task: what it cost, how many attempts it made, which
 * side effects the write tool committed (counted by the tool, per logical step and per idempotency key),
 * the sticky faults of each step and tier, and the ground truth of its results.
 */
public final class TaskState {

  static final int TIERS = 3;
  private static final String[] NO_KEYS = new String[0];

  private final TaskPlan plan;
  private final long startNanos;
  // Per step and tier, at [step * TIERS + tier].
  private final int[] attemptNumbers;
  private final Fault[] stickyFaults;
  private final int[] effects;
  private final SimResult[] lastWriteResults;
  // The idempotency keys the write tool has seen: a task has a handful, so a short array beats a hash set.
  private String[] committedKeys = NO_KEYS;
  private int committedKeyCount;
  private double cost;
  private int attempts;
  private int stepsRun;
  private boolean degraded;
  private boolean wrongResultAccepted;
  private boolean escalated;
  private long firstFailureNanos = -1;
  private long recoveryNanos = -1;
  private long attemptNanos;
  private long escalationNanos;
  private int wrongStep = -1;
  private EvidenceBundle escalation;

  TaskState(TaskPlan plan, long startNanos) {
    this.plan = plan;
    this.startNanos = startNanos;
    int steps = plan.stepCount();
    this.attemptNumbers = new int[steps * TIERS];
    this.stickyFaults = new Fault[steps * TIERS];
    this.effects = new int[steps];
    this.lastWriteResults = new SimResult[steps];
  }

  public TaskPlan plan() {
    return plan;
  }

  /** The number of the next attempt of {@code step} on {@code tier} (0 for the first). */
  int nextAttempt(int step, int tier) {
    attempts++;
    if (tier > 0) {
      degraded = true;
    }
    return attemptNumbers[step * TIERS + tier]++;
  }

  Fault stickyFault(int step, int tier) {
    return stickyFaults[step * TIERS + tier];
  }

  void stickyFault(int step, int tier, Fault fault) {
    stickyFaults[step * TIERS + tier] = fault;
  }

  void addCost(double amount) {
    cost += amount;
  }

  /** An attempt took {@code nanos} of the task's time. */
  void addAttemptTime(long nanos) {
    attemptNanos += nanos;
  }

  /**
   * The write tool of {@code step} commits: a call with an idempotency key it has seen replays the
   * first effect; any other call creates a new effect.
   */
  void commit(int step, String idempotencyKey) {
    if (idempotencyKey != null && !rememberKey(idempotencyKey)) {
      return;
    }
    effects[step]++;
  }

  /** Whether an effect of {@code step}'s write is in place (committed and not undone). */
  boolean effectInPlace(int step) {
    return effects[step] > 0;
  }

  /** A compensation of {@code step}'s write takes one of its effects back (none if none is in place). */
  void compensate(int step) {
    if (effects[step] > 0) {
      effects[step]--;
    }
  }

  /** The result the write tool of {@code step} last answered. */
  SimResult lastWriteResult(int step) {
    return lastWriteResults[step];
  }

  void lastWriteResult(int step, SimResult result) {
    lastWriteResults[step] = result;
  }

  /** Adds {@code key} to the keys seen; {@code false} if it was seen before. */
  private boolean rememberKey(String key) {
    for (int i = 0; i < committedKeyCount; i++) {
      if (committedKeys[i].equals(key)) {
        return false;
      }
    }
    if (committedKeyCount == committedKeys.length) {
      committedKeys = Arrays.copyOf(committedKeys, Math.max(4, 2 * committedKeyCount));
    }
    committedKeys[committedKeyCount++] = key;
    return true;
  }

  /** A failure (fault or verifier rejection) was seen at {@code nowNanos}. */
  void failureSeen(long nowNanos) {
    if (firstFailureNanos < 0) {
      firstFailureNanos = nowNanos;
    }
  }

  /** A step ended with an accepted result at {@code nowNanos}. */
  void stepAccepted(long nowNanos, int step, SimResult result) {
    if (!result.correct() && !wrongResultAccepted) {
      wrongResultAccepted = true;
      wrongStep = step;
    }
    recovered(nowNanos);
  }

  /** A human took the task over after {@code waitNanos}; it ends at {@code nowNanos}. */
  void escalated(double escalationCost, long waitNanos, long nowNanos) {
    escalated = true;
    cost += escalationCost;
    escalationNanos += waitNanos;
    recovered(nowNanos);
  }

  /** The engine asked to escalate with {@code evidence} (whether or not anybody took the task over). */
  void escalationAsked(EvidenceBundle evidence) {
    escalation = evidence;
  }

  /** The evidence of the engine's escalation, or null when it asked for none. */
  EvidenceBundle escalation() {
    return escalation;
  }

  /** The step whose wrong result was accepted first, or -1. */
  int wrongStep() {
    return wrongStep;
  }

  boolean isEscalated() {
    return escalated;
  }

  void stepStarted() {
    stepsRun++;
  }

  private void recovered(long nowNanos) {
    if (firstFailureNanos >= 0 && recoveryNanos < 0) {
      recoveryNanos = nowNanos - firstFailureNanos;
    }
  }

  /** Side effects committed more than once. */
  int duplicates() {
    int duplicates = 0;
    for (int e : effects) {
      duplicates += Math.max(0, e - 1);
    }
    return duplicates;
  }

  /**
   * The task's result.
   *
   * @param allStepsAccepted whether the harness accepted every step
   * @param endNanos when the task ended
   */
  TaskResult finish(boolean allStepsAccepted, long endNanos) {
    boolean success = allStepsAccepted && !wrongResultAccepted && !escalated;
    return new TaskResult(success, escalated, allStepsAccepted, duplicates(), cost, endNanos - startNanos,
        attempts, stepsRun, degraded, recoveryNanos, attemptNanos, escalationNanos);
  }
}
