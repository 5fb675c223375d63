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
 *   <tr><td>{@link OutcomeUnknownException}</td><td>{@code HfrOutcomeUnknown}</td><td>no, unless asked</td><td>–</td></tr>
 *   <tr><td>refused, reason {@code key_in_use}</td><td>{@code HfrKeyInUse}</td><td>yes</td><td>the holder's lease</td></tr>
 *   <tr><td>any other refusal (T8, approval, limit)</td><td>{@code HfrRefused}</td><td>no</td><td>–</td></tr>
 *   <tr><td>{@link CallEscalatedException}</td><td>{@code HfrEscalated}</td><td>no</td><td>–</td></tr>
 *   <tr><td>failed, T7 or T8, or not retryable</td><td>{@code HfrFailed}</td><td>no</td><td>–</td></tr>
 *   <tr><td>failed, retryable</td><td>{@code HfrFailed}</td><td>yes</td><td>Retry-After, else Temporal's</td></tr>
 * </table>
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
   * The failure the activity attempt ends with, {@code call} as its cause.
   *
   * @param retryUnknownOutcomes whether an unknown outcome is retryable (the next attempt reconciles it first)
   */
  public static ApplicationFailure toFailure(ToolCallException call, long nowEpochMillis, boolean retryUnknownOutcomes) {
    ToolOutcome outcome = call.outcome();
    ApplicationFailure.Builder failure = ApplicationFailure.newBuilder()
        .setMessage(call.getMessage())
        .setDetails(details(call))
        .setCause(call);
    if (call instanceof OutcomeUnknownException) {
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
      long retryAfter = retryAfterMillis(call.getCause(), nowEpochMillis);
      if (retryAfter > 0) {
        failure.setNextRetryDelay(Duration.ofMillis(retryAfter));
      }
    }
    return failure.build();
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
