package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.io.IOException;

/**
 * Where the decision writer puts the JSON of each event: a logger or a file. Used by the writer thread only,
 * except {@link #awaitWritten} and {@link #enabled}.
 */
interface DecisionDestination {

  /** Whether an event written now would be kept; asked on the calling thread, so it must be cheap. */
  boolean enabled();

  /** Writes one event, as one JSON object: the content of {@code json}, which the writer reuses afterwards. */
  void write(DecisionEventJson json) throws IOException;

  /**
   * Whether {@code event} is written one by one; a destination may instead count it into a summary (the
   * logger does for routine events while it is above DEBUG). Asked before the event is serialised.
   */
  default boolean keeps(DecisionEvent event) {
    return true;
  }

  /** Writes {@code event}, already serialised into {@code json}; the destination may look at the event (its level). */
  default void write(DecisionEvent event, DecisionEventJson json) throws IOException {
    write(json);
  }

  /**
   * Makes what was written visible (once per batch), or starts to: see {@link #awaitWritten}.
   *
   * @param behind whether the writer's batch was full, so more events wait for it: a destination may then
   *     leave the work to a thread of its own
   */
  void flush(boolean behind) throws IOException;

  /**
   * Waits until what was flushed before this call is visible, or {@code System.nanoTime()} passed
   * {@code deadlineNanos}; returns whether it is. A destination whose flush is done on return has nothing to
   * wait for. Any thread may call it.
   */
  default boolean awaitWritten(long deadlineNanos) {
    return true;
  }

  /** Tells the destination what to run when a write fails on a thread of its own (where nobody can catch it). */
  default void onWriteFailure(Runnable failed) {
    // A destination that writes on the caller's thread throws instead.
  }

  void close() throws IOException;
}
