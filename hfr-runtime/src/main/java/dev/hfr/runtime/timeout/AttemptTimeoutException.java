package dev.hfr.runtime.timeout;

import java.util.concurrent.TimeoutException;

/**
 * An attempt, reconcile or compensation ran out of its time and was interrupted: a T3 for the classifier
 * (a timed-out write has an unknown outcome). The cause is what the interrupted call threw.
 */
public final class AttemptTimeoutException extends TimeoutException {

  private static final long serialVersionUID = 1L;

  public AttemptTimeoutException(String what, long timeoutNanos, Throwable cause) {
    super(what + " timed out after " + Math.max(1, timeoutNanos / 1_000_000L) + " ms and was interrupted");
    initCause(cause);
  }
}
