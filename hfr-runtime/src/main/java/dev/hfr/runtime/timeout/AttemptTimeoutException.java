package dev.hfr.runtime.timeout;

import java.util.concurrent.TimeoutException;

/**
 * An attempt, reconcile or compensation ran out of its time and was interrupted, or abandoned: a T3 for the
 * classifier (a timed-out write has an unknown outcome). The cause is what the interrupted call threw;
 * an abandoned call (one of a tool known to ignore interruption, left running on its own thread) has none.
 */
public final class AttemptTimeoutException extends TimeoutException {

  private static final long serialVersionUID = 1L;

  public AttemptTimeoutException(String what, long timeoutNanos, Throwable cause) {
    super(what + " timed out after " + Math.max(1, timeoutNanos / 1_000_000L) + " ms and was interrupted");
    initCause(cause);
  }

  /** A call that was abandoned after {@code timeoutNanos}: it still runs, and whatever it ends with is discarded. */
  public static AttemptTimeoutException abandoned(String what, long timeoutNanos) {
    return new AttemptTimeoutException(what, timeoutNanos, "abandoned (the tool ignores interruption; it still runs and"
        + " whatever it returns is discarded)");
  }

  private AttemptTimeoutException(String what, long timeoutNanos, String how) {
    super(what + " timed out after " + Math.max(1, timeoutNanos / 1_000_000L) + " ms and was " + how);
  }
}
