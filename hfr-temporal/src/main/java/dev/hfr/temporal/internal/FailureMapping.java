package dev.hfr.temporal.internal;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.CallRefusedException;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.classify.ObservableFailure;
import dev.hfr.runtime.classify.RetryAfter;
import dev.hfr.runtime.ledger.KeyInUseException;
import dev.hfr.temporal.HfrFailureDetails;
import dev.hfr.temporal.HfrFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;

/**
 * HFR's end of a tool call as Temporal's end of the activity attempt: the one place that says which HFR
 * outcomes Temporal may retry, and after how long (docs/TEMPORAL.md, "Which layer retries what").
 *
 * <table>
 *   <caption>HFR's outcome → the activity's failure</caption>
 *   <tr><th>HFR</th><th>type</th><th>Temporal retries</th><th>next retry delay</th></tr>
 *   <tr><td>unknown outcome of an R1 write ({@link ToolCallException#resendableUnderKey()})</td>
 *       <td>{@code HfrOutcomeUnknown}</td><td>yes: resent under the same key</td><td>as for a failure</td></tr>
 *   <tr><td>any other unknown outcome, handed to a person</td><td>{@code HfrEscalated}</td><td>no, whatever
 *       {@code retryUnknownOutcomes} says</td><td>–</td></tr>
 *   <tr><td>an unknown outcome the escalation handler failed to take</td><td>{@code HfrOutcomeUnknown}</td>
 *       <td>no, unless {@code retryUnknownOutcomes}</td><td>–</td></tr>
 *   <tr><td>refused, reason {@code key_in_use}</td><td>{@code HfrKeyInUse}</td><td>yes</td><td>the holder's lease</td></tr>
 *   <tr><td>any other refusal (T8, approval, limit)</td><td>{@code HfrRefused}</td><td>no</td><td>–</td></tr>
 *   <tr><td>{@link CallEscalatedException}</td><td>{@code HfrEscalated}</td><td>no</td><td>–</td></tr>
 *   <tr><td>failed, T7 or T8, or not retryable</td><td>{@code HfrFailed}</td><td>no</td><td>–</td></tr>
 *   <tr><td>failed, retryable (an open breaker, an empty budget, a 429 included)</td><td>{@code HfrFailed}</td>
 *       <td>yes</td><td>the latest of: when HFR expects to admit the call, the provider's Retry-After, and
 *       Temporal's own next backoff; Temporal's own when HFR names neither</td></tr>
 * </table>
 *
 * <p>Retry-After and HFR's admission time are floors, never a shortcut: a 429 storm with {@code Retry-After: 1}
 * would otherwise replace Temporal's growing backoff by one second each time, and send more requests than
 * Temporal alone.
 */
public final class FailureMapping {

  /** Added to a holder's remaining lease, so the next attempt comes after it lapsed rather than just before. */
  private static final Duration AFTER_LEASE = Duration.ofMillis(500);

  private FailureMapping() {}

  /** The {@link ToolCallException} in {@code failure}'s cause chain, or {@code null}. */
  public static ToolCallException find(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ToolCallException call) {
        return call;
      }
    }
    return null;
  }

  /**
   * The failure the activity attempt ends with, {@code call} as its cause, with no backoff of Temporal's to respect.
   *
   * @param retryUnknownOutcomes whether an unknown outcome no person took is retryable (the next attempt reconciles it first)
   */
  public static ApplicationFailure toFailure(ToolCallException call, long nowEpochMillis, boolean retryUnknownOutcomes) {
    return toFailure(call, nowEpochMillis, retryUnknownOutcomes, Duration.ZERO);
  }

  /**
   * The failure the activity attempt ends with, {@code call} as its cause.
   *
   * @param retryUnknownOutcomes whether an unknown outcome no person took is retryable (the next attempt reconciles it first)
   * @param temporalBackoff the delay Temporal's retry policy gives the next attempt: a next retry delay HFR sets is
   *     never shorter
   */
  public static ApplicationFailure toFailure(ToolCallException call, long nowEpochMillis, boolean retryUnknownOutcomes,
      Duration temporalBackoff) {
    ToolOutcome outcome = call.outcome();
    ApplicationFailure.Builder failure = ApplicationFailure.newBuilder()
        .setMessage(call.getMessage())
        .setDetails(details(call))
        .setCause(call);
    if (call instanceof OutcomeUnknownException) {
      if (call.resendableUnderKey()) {
        // An idempotent write whose answer was lost: the next attempt resends it under the same key.
        failure.setType(HfrFailureTypes.OUTCOME_UNKNOWN).setNonRetryable(false);
        nextDelay(call, nowEpochMillis, temporalBackoff, failure);
        return failure.build();
      }
      if (outcome.status() == ToolOutcome.Status.ESCALATED) {
        // A person has it: a retry would only escalate it again (or worse, resend it).
        return failure.setType(HfrFailureTypes.ESCALATED).setNonRetryable(true).build();
      }
      return failure.setType(HfrFailureTypes.OUTCOME_UNKNOWN).setNonRetryable(!retryUnknownOutcomes).build();
    }
    if (call instanceof CallRefusedException) {
      if ("key_in_use".equals(outcome.reason())) {
        return failure.setType(HfrFailureTypes.KEY_IN_USE).setNonRetryable(false)
            .setNextRetryDelay(leaseLeft(call).plus(AFTER_LEASE)).build();
      }
      return failure.setType(HfrFailureTypes.REFUSED).setNonRetryable(true).build();
    }
    if (call instanceof CallEscalatedException) {
      return failure.setType(HfrFailureTypes.ESCALATED).setNonRetryable(true).build();
    }
    boolean permanent = !outcome.retryable() || outcome.errorType() == Fault.T7 || outcome.errorType() == Fault.T8;
    failure.setType(HfrFailureTypes.FAILED).setNonRetryable(permanent);
    if (!permanent) {
      nextDelay(call, nowEpochMillis, temporalBackoff, failure);
    }
    return failure.build();
  }

  /**
   * Sets the next retry's delay when HFR knows one — when it expects to admit the call (breaker, budget), the
   * provider's Retry-After — never shorter than Temporal's own backoff; leaves it to Temporal otherwise.
   */
  private static void nextDelay(ToolCallException call, long nowEpochMillis, Duration temporalBackoff,
      ApplicationFailure.Builder failure) {
    long retryAfter = retryAfterMillis(call.getCause(), nowEpochMillis);
    long admitAfter = call.admitAfter().map(Duration::toMillis).orElse(0L);
    long known = Math.max(retryAfter, admitAfter);
    if (known > 0) {
      failure.setNextRetryDelay(Duration.ofMillis(Math.max(known, temporalBackoff.toMillis())));
    }
  }

  static HfrFailureDetails details(ToolCallException call) {
    ToolOutcome o = call.outcome();
    String key = o.artifactRefs().stream().filter(r -> r.startsWith("ledger:")).map(r -> r.substring(7)).findFirst()
        .orElse(null);
    return new HfrFailureDetails(o.tool(), o.status().name(), o.errorType() == null ? null : o.errorType().name(),
        o.reason(), o.sideEffect(), key, o.artifactRefs(), o.attempts(), evidence(call));
  }

  private static String evidence(ToolCallException call) {
    StringBuilder text = new StringBuilder(call.getMessage());
    for (Throwable t = call.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
      text.append("; caused by ").append(t.getClass().getName());
      if (t.getMessage() != null) {
        text.append(": ").append(t.getMessage());
      }
    }
    return text.toString();
  }

  /** How long the holder's lease had left, from the {@link KeyInUseException} HFR names as the cause. */
  private static Duration leaseLeft(ToolCallException call) {
    for (Throwable t = call.getCause(); t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof KeyInUseException inUse) {
        return inUse.remaining();
      }
    }
    return Duration.ZERO;
  }

  /** The provider's Retry-After (or rate-limit reset) of the call's last failure, in ms; 0 when it named none. */
  private static long retryAfterMillis(Throwable cause, long nowEpochMillis) {
    for (Throwable t = cause; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (t instanceof ObservableFailure observable) {
        return Math.max(0, RetryAfter.fromHeaders(observable.observation(), nowEpochMillis));
      }
    }
    return 0;
  }
}
