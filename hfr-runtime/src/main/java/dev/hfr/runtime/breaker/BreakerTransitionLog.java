package dev.hfr.runtime.breaker;

import java.util.Objects;

/**
 * Logs every breaker state change once — opening and closing at INFO, half-open at DEBUG — on the {@code System.Logger} {@value #LOGGER_NAME} (opened and
 * why, half-open, closed; a reopen after a failed probe says so): what an operator acts on, where the calls a
 * breaker refuses are only counted ({@code harness.calls} with {@code reason=circuit_open}, and a summary in the
 * decision log). Passes every change on to the listener it wraps.
 */
public final class BreakerTransitionLog implements CircuitBreakerListener {

  /** The logger breaker transitions go to. */
  public static final String LOGGER_NAME = "dev.hfr.breakers";

  private static final System.Logger LOG = System.getLogger(LOGGER_NAME);

  private final CircuitBreakerListener next;

  private BreakerTransitionLog(CircuitBreakerListener next) {
    this.next = next;
  }

  /** Logs transitions, then hands them to {@code next}. */
  public static CircuitBreakerListener around(CircuitBreakerListener next) {
    return new BreakerTransitionLog(Objects.requireNonNull(next, "next"));
  }

  @Override
  public void onCreated(CircuitBreaker breaker) {
    next.onCreated(breaker);
  }

  @Override
  public void onStateChange(CircuitBreaker breaker, CircuitState from, CircuitState to, TripReason reason) {
    // Half-open is a step of the cycle, not news: DEBUG. Opening and closing are what an operator acts on.
    System.Logger.Level level = to == CircuitState.HALF_OPEN ? System.Logger.Level.DEBUG : System.Logger.Level.INFO;
    if (LOG.isLoggable(level)) {
      String target = breaker.kind().tag() + " " + breaker.name();
      String line = switch (to) {
        case OPEN -> "HFR breaker " + target + " opened (" + (reason == null ? "unknown" : reason.name().toLowerCase(java.util.Locale.ROOT))
            + (from == CircuitState.HALF_OPEN ? ", its probe failed" : "") + "): calls to it are refused until its cooldown ends";
        case HALF_OPEN -> "HFR breaker " + target + " half-open: probing";
        case CLOSED -> "HFR breaker " + target + " closed: calls go through again";
      };
      LOG.log(level, line);
    }
    next.onStateChange(breaker, from, to, reason);
  }
}
