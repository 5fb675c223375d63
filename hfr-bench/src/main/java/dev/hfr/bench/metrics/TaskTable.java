package dev.hfr.bench.metrics;

import java.util.Arrays;

/**
 * The per-task results of one strategy on one workload, column by column, kept for the paired
 * comparisons of §6.6.5. Task {@code i} of two tables of the same workload is the same task.
 */
public final class TaskTable {

  private static final int SUCCESS = 1;
  private static final int ESCALATED = 2;
  private static final int ACCEPTED = 4;
  private static final int DEGRADED = 8;

  private byte[] flags;
  private int[] duplicates;
  private double[] cost;
  private long[] latencyNanos;
  private int[] attempts;
  private int[] stepsRun;
  private long[] recoveryNanos;
  private long[] attemptNanos;
  private long[] escalationNanos;
  private int size;
  private final Breakdown breakdown = new Breakdown();

  public TaskTable(int capacity) {
    int c = Math.max(1, capacity);
    flags = new byte[c];
    duplicates = new int[c];
    cost = new double[c];
    latencyNanos = new long[c];
    attempts = new int[c];
    stepsRun = new int[c];
    recoveryNanos = new long[c];
    attemptNanos = new long[c];
    escalationNanos = new long[c];
  }

  /** Appends the next task's result. */
  public void add(TaskResult r) {
    if (size == flags.length) {
      grow();
    }
    flags[size] = (byte) ((r.success() ? SUCCESS : 0) | (r.escalated() ? ESCALATED : 0)
        | (r.harnessAccepted() ? ACCEPTED : 0) | (r.degraded() ? DEGRADED : 0));
    duplicates[size] = r.duplicates();
    cost[size] = r.cost();
    latencyNanos[size] = r.latencyNanos();
    attempts[size] = r.attempts();
    stepsRun[size] = r.stepsRun();
    recoveryNanos[size] = r.recoveryNanos();
    attemptNanos[size] = r.attemptNanos();
    escalationNanos[size] = r.escalationNanos();
    size++;
  }

  /** Appends every task of {@code other} (pooling seeds), and adds its breakdown to this one's. */
  public void addAll(TaskTable other) {
    for (int i = 0; i < other.size; i++) {
      add(other.get(i));
    }
    breakdown.merge(other.breakdown);
  }

  /** Why this table's tasks ended as they did, and what their attempts met. */
  public Breakdown breakdown() {
    return breakdown;
  }

  public int size() {
    return size;
  }

  /** The result of task {@code i}. */
  public TaskResult get(int i) {
    if (i < 0 || i >= size) {
      throw new IndexOutOfBoundsException("task " + i + " of " + size);
    }
    byte f = flags[i];
    return new TaskResult((f & SUCCESS) != 0, (f & ESCALATED) != 0, (f & ACCEPTED) != 0, duplicates[i], cost[i],
        latencyNanos[i], attempts[i], stepsRun[i], (f & DEGRADED) != 0, recoveryNanos[i], attemptNanos[i], escalationNanos[i]);
  }

  public boolean success(int i) { return (flags[i] & SUCCESS) != 0; }

  public boolean escalated(int i) { return (flags[i] & ESCALATED) != 0; }

  public boolean accepted(int i) { return (flags[i] & ACCEPTED) != 0; }

  public boolean degraded(int i) { return (flags[i] & DEGRADED) != 0; }

  public int duplicates(int i) { return duplicates[i]; }

  public boolean cleanSuccess(int i) { return success(i) && duplicates[i] == 0; }

  public boolean safeCompletion(int i) { return (success(i) || escalated(i)) && duplicates[i] == 0; }

  public double cost(int i) { return cost[i]; }

  public long latencyNanos(int i) { return latencyNanos[i]; }

  public int attempts(int i) { return attempts[i]; }

  public int stepsRun(int i) { return stepsRun[i]; }

  public long recoveryNanos(int i) { return recoveryNanos[i]; }

  public long attemptNanos(int i) { return attemptNanos[i]; }

  public long escalationNanos(int i) { return escalationNanos[i]; }

  private void grow() {
    int c = flags.length * 2;
    flags = Arrays.copyOf(flags, c);
    duplicates = Arrays.copyOf(duplicates, c);
    cost = Arrays.copyOf(cost, c);
    latencyNanos = Arrays.copyOf(latencyNanos, c);
    attempts = Arrays.copyOf(attempts, c);
    stepsRun = Arrays.copyOf(stepsRun, c);
    recoveryNanos = Arrays.copyOf(recoveryNanos, c);
    attemptNanos = Arrays.copyOf(attemptNanos, c);
    escalationNanos = Arrays.copyOf(escalationNanos, c);
  }
}
