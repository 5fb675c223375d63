package dev.hfr.runtime.internal.engine;

/**
 * What a state step decided: the state the call moves to, and whether the driver waits first (a retry's
 * backoff). Steps never wait themselves: the blocking driver sleeps the delay, an asynchronous driver
 * schedules the next step after it. Transitions without a wait are shared constants, so a clean call
 * allocates none.
 */
final class Next {

  private static final Next[] AT_ONCE = atOnce(false);
  /** The zero waits (a retry without backoff) are shared too. */
  private static final Next[] AFTER_ZERO = atOnce(true);

  final ControllerState state;
  /** How long to wait before {@link #state} runs; meaningful only when {@link #waits}. */
  final long delayNanos;
  /** Whether the driver waits {@link #delayNanos} (possibly zero) before running {@link #state}. */
  final boolean waits;

  private Next(ControllerState state, long delayNanos, boolean waits) {
    this.state = state;
    this.delayNanos = delayNanos;
    this.waits = waits;
  }

  /** Moves to {@code state} at once. */
  static Next to(ControllerState state) {
    return AT_ONCE[state.ordinal()];
  }

  /** Moves to {@code state} after waiting {@code delayNanos} (zero still passes through the driver's wait). */
  static Next after(ControllerState state, long delayNanos) {
    return delayNanos == 0 ? AFTER_ZERO[state.ordinal()] : new Next(state, delayNanos, true);
  }

  @Override
  public String toString() {
    return waits ? state + " after " + delayNanos + " ns" : state.toString();
  }

  private static Next[] atOnce(boolean waits) {
    ControllerState[] states = ControllerState.values();
    Next[] out = new Next[states.length];
    for (ControllerState s : states) {
      out[s.ordinal()] = new Next(s, 0L, waits);
    }
    return out;
  }
}
