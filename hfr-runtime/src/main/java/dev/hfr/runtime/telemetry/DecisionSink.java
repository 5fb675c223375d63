package dev.hfr.runtime.telemetry;

/**
 * Where decision events go: a JSON-lines file by default ({@link JsonLinesDecisionSink}), a log, a
 * queue. Called on the deciding thread; a sink that fails loses the event but never the call: the engine
 * counts the failure in {@code harness.decision.sink.failures} and carries on.
 */
@FunctionalInterface
public interface DecisionSink extends AutoCloseable {

  /** Records one decision. */
  void record(DecisionEvent event) throws Exception;

  @Override
  default void close() throws java.io.IOException {}

  /** Drops every event. */
  static DecisionSink discarding() {
    return event -> {};
  }
}
