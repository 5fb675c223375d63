package dev.hfr.runtime.telemetry;

/**
 * Where decision events go: the {@link DecisionLog} by default (the {@code System.Logger} {@value
 * DecisionLog#LOGGER_NAME}, written off the calling thread), a file, a queue. Called on the deciding thread,
 * so a sink that does I/O there slows every failing call; a sink that fails loses the event but never the
 * call: the engine counts the failure in {@code harness.decision.sink.failures} and carries on.
 */
@FunctionalInterface
public interface DecisionSink extends AutoCloseable {

  /** Records one decision. */
  void record(DecisionEvent event) throws Exception;

  /**
   * Whether this sink keeps anything it is given. A sink that answers {@code false} is not called, and
   * the engine skips the work done only for it: the argument hash of each decision and the id of an implicit
   * task (a call's decisions are still kept for its escalation, and the evidence bundle fills both in). Asked on every
   * decision, so answer quickly (a constant, or a logger's level check).
   */
  default boolean wantsEvents() {
    return true;
  }

  @Override
  default void close() throws java.io.IOException {}

  /** Drops every event; the engine does no hashing for it ({@link #wantsEvents()} is {@code false}). */
  static DecisionSink discarding() {
    return new DecisionSink() {
      @Override
      public void record(DecisionEvent event) {}

      @Override
      public boolean wantsEvents() {
        return false;
      }

      @Override
      public String toString() {
        return "DecisionSink.discarding()";
      }
    };
  }
}
