package dev.hfr.temporal;

/**
 * The {@code type} of the {@code ApplicationFailure} an activity fails with when HFR ended one of its tool
 * calls without an accepted result: a workflow matches on it ({@code ActivityFailure#getCause()} is the
 * {@code ApplicationFailure}) to wait for a person, compensate or give up. The failure's details are a
 * {@link HfrFailureDetails}.
 */
public final class HfrFailureTypes {

  /**
   * A write may have been applied and nobody knows. Not retryable, so a person decides, unless the interceptor
   * was built with {@code retryUnknownOutcomes(true)}: then the next attempt reconciles the write first.
   */
  public static final String OUTCOME_UNKNOWN = "HfrOutcomeUnknown";

  /**
   * Refused: a policy refusal (T8), a denied approval, a task limit, a repeated action, a write already
   * committed and compensated. Not retryable.
   */
  public static final String REFUSED = "HfrRefused";

  /** Handed to a person with its evidence (an unanswerable reconcile, a rung that needs approval). Not retryable. */
  public static final String ESCALATED = "HfrEscalated";

  /**
   * Another worker still holds the write's lease: retryable, with the lease's remaining time as the next
   * retry's delay, so the next attempt finds its outcome or takes it over.
   */
  public static final String KEY_IN_USE = "HfrKeyInUse";

  /**
   * A structured failure with nothing left half-done: retryable when HFR's outcome says a later call may succeed
   * (with the provider's {@code Retry-After} as the next retry's delay), not retryable otherwise (T7, a
   * permanent error).
   */
  public static final String FAILED = "HfrFailed";

  private HfrFailureTypes() {}
}
