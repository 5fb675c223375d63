package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.budget.TaskLimit;

/**
 * A call's admission into its task as one {@code long}, so that the clean path allocates nothing: the step
 * number the task gave it (high bits) and the limit that refused it, if any (low bits).
 */
final class Admission {

  private static final TaskLimit[] LIMITS = TaskLimit.values();
  private static final int REFUSAL_BITS = 4;
  private static final long REFUSAL_MASK = (1L << REFUSAL_BITS) - 1;

  static {
    if (LIMITS.length >= REFUSAL_MASK) {
      throw new ExceptionInInitializerError("TaskLimit has outgrown Admission's " + REFUSAL_BITS + " bits");
    }
  }

  private Admission() {}

  /** Step {@code step} (≥ 1), refused by {@code refusal} ({@code null}: admitted). */
  static long of(long step, TaskLimit refusal) {
    return step << REFUSAL_BITS | (refusal == null ? 0 : refusal.ordinal() + 1);
  }

  /** The call's step number. */
  static long step(long admission) {
    return admission >>> REFUSAL_BITS;
  }

  /** The limit that refused the call, or {@code null}: admitted. */
  static TaskLimit refusal(long admission) {
    int code = (int) (admission & REFUSAL_MASK);
    return code == 0 ? null : LIMITS[code - 1];
  }
}
