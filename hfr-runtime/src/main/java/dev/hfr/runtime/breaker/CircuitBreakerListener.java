package dev.hfr.runtime.breaker;

/**
 * Hears about breakers: when one is created (to register its {@code harness.circuit.state} gauge) and
 * when one changes state (to emit a decision event). Called on the thread that caused the change, after
 * the breaker's lock is released; must be quick and must not throw.
 */
public interface CircuitBreakerListener {

  /** A listener that ignores everything. */
  CircuitBreakerListener NONE = new CircuitBreakerListener() {};

  /** A breaker was created (closed). */
  default void onCreated(CircuitBreaker breaker) {}

  /**
   * A breaker moved from {@code from} to {@code to}.
   *
   * @param reason why it opened, or {@code null} for a move to HALF_OPEN or CLOSED
   */
  default void onStateChange(CircuitBreaker breaker, CircuitState from, CircuitState to, TripReason reason) {}
}
