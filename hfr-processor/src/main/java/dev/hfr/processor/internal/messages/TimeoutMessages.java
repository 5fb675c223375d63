package dev.hfr.processor.internal.messages;

/** {@code @Timeout}: its value (an error) and timeouts on writes that cannot be abandoned safely (a warning). */
public final class TimeoutMessages {

  /** {@code @Timeout(ms)} must be positive. */
  public static final String TIMEOUT_SETTINGS = "hfr/timeout-settings";
  /** Warning: a timeout on an R3 method without a reconcile method. */
  public static final String TIMEOUT_IRREVERSIBLE = "hfr/timeout-irreversible";

  private TimeoutMessages() {}

  public static String notPositive(String element, long ms) {
    return "[" + TIMEOUT_SETTINGS + "] " + element + " has @Timeout(ms = " + ms + "): an attempt needs at least"
        + " 1 ms; use a positive bound, or remove @Timeout to leave attempts unbounded";
  }

  public static String irreversibleWithoutReconcile(String method, long ms) {
    return "[" + TIMEOUT_IRREVERSIBLE + "] " + method + " is R3 (irreversible) without a reconcile method and"
        + " bounded by @Timeout(ms = " + ms + "): an attempt that runs out of time is interrupted and abandoned"
        + " with an unknown outcome — never resent — and the call escalates (OutcomeUnknownException); make it"
        + " R2 with @SideEffect(reconcile = ...) so HFR can find out whether it happened, or remove @Timeout";
  }
}
