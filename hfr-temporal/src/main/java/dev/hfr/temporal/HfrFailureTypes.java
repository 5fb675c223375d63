package dev.hfr.temporal;

/**
 * The {@code type} of the {@code ApplicationFailure} an activity fails with when HFR ended one of its tool
 * calls without an accepted result: a workflow matches on it ({@code ActivityFailure#getCause()} is the
 * {@code ApplicationFailure}) to wait for a person, compensate or give up. The failure's details are a
 * {@link HfrFailureDetails}.
 */
public final class HfrFailureTypes {

  /**
   * A write may have been applied and nobody knows yet. Retryable for an idempotent (R1) write, which the next
   * attempt resends under the same key; otherwise the write's escalation failed (a write handed to a person is
   * {@link #ESCALATED}), and it is retryable only when the interceptor was built with {@code
   * retryUnknownOutcomes(true)}: then the next attempt reconciles the write first.
   */
  public static final String OUTCOME_UNKNOWN = "HfrOutcomeUnknown";

  /**
   * Refused: a policy refusal (T8), a denied approval, a task limit, a repeated action, a write already
   * committed and compensated. Not retryable.
   */
  public static final String REFUSED = "HfrRefused";

  /**
   * Handed to a person with its evidence (a write whose outcome nobody can settle, an unanswerable reconcile, a rung
   * that needs approval). Never retryable, whatever {@code retryUnknownOutcomes} says.
   */
  public static final String ESCALATED = "HfrEscalated";

  /**
   * Another worker still holds the write's lease: retryable, with the lease's remaining time as the next
   * retry's delay, so the next attempt finds its outcome or takes it over.
   */
  public static final String KEY_IN_USE = "HfrKeyInUse";

  /**
   * A structured failure with nothing left half-done: retryable when HFR's outcome says a later call may succeed —
   * an open breaker, an empty retry budget and a rate limit included, with the time HFR expects to admit the call or
   * the provider's {@code Retry-After} as a floor under Temporal's next retry delay — not retryable otherwise (T7, a
   * permanent error).
   */
  public static final String FAILED = "HfrFailed";

  private HfrFailureTypes() {}
}
