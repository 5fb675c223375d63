package dev.hfr.runtime.breaker;

/** The three states of a circuit breaker (paper §4.7). */
public enum CircuitState {
  /** Calls pass; outcomes are counted in the sliding window. */
  CLOSED(0),
  /** Calls are refused until the cooldown ends; the engine routes to degradation, never to retries. */
  OPEN(1),
  /** A bounded number of probe calls pass; their outcome closes or reopens the breaker. */
  HALF_OPEN(2);

  private final int gaugeValue;

  CircuitState(int gaugeValue) {
    this.gaugeValue = gaugeValue;
  }

  /** The value of the {@code harness.circuit.state} gauge: 0 closed, 1 open, 2 half-open. */
  public int gaugeValue() {
    return gaugeValue;
  }
}
