package dev.hfr.processor.internal.messages;

import dev.hfr.annotations.Fault;

/** Rule 2 (irreversible writes are never retried or degraded), rule 5 (retry settings) and retry warnings. */
public final class RetryMessages {

  /** Rule 2: R3 is never retried and never degraded to another method. */
  public static final String IRREVERSIBLE_RETRY = "hfr/irreversible-retry";
  /** Rule 5: retry settings must be meaningful. */
  public static final String RETRY_SETTINGS = "hfr/retry-settings";
  /** Warning: {@code @Retry} that allows a single attempt on a retryable method. */
  public static final String RETRY_DISABLED = "hfr/retry-disabled";
  /** Warning: {@code @Retry(maxAttempts = 1)} on an R3 method, which is never retried anyway. */
  public static final String RETRY_REDUNDANT = "hfr/retry-redundant";
  /** Warning: {@code @Retry(on = {})}. */
  public static final String RETRY_ON_NOTHING = "hfr/retry-on-nothing";
  /** Warning: more attempts than a retry storm can afford. */
  public static final String RETRY_STORM = "hfr/retry-storm";

  /** Attempts above this are reported as a retry-storm risk. */
  public static final int STORM_THRESHOLD = 10;

  private RetryMessages() {}

  public static String irreversibleRetry(String method) {
    return "[" + IRREVERSIBLE_RETRY + "] " + method + " is R3 (irreversible) and cannot be retried: remove"
        + " @Retry or lower maxAttempts to 1";
  }

  public static String irreversibleDegrade(String method, String target) {
    return "[" + IRREVERSIBLE_RETRY + "] " + method + " is R3 (irreversible) and cannot be degraded to "
        + target + ": the rung could repeat a side effect that already happened; remove the @Degrade and let"
        + " failures escalate";
  }

  public static String neverRetriedFault(String method, Fault fault) {
    String why = fault == Fault.T7 ? "a permanent input or permission error" : "a safety or policy refusal";
    return "[" + RETRY_SETTINGS + "] " + method + " retries on " + fault + " (" + why + "), which is never"
        + " retried: remove " + fault + " from @Retry(on = ...)";
  }

  public static String maxAttemptsBelowOne(String method, int maxAttempts) {
    return "[" + RETRY_SETTINGS + "] " + method + " has @Retry(maxAttempts = " + maxAttempts + "), but"
        + " attempts include the first call: use 1 for no retry, or more";
  }

  public static String negativeDelay(String method, String attribute, long value) {
    return "[" + RETRY_SETTINGS + "] " + method + " has @Retry(" + attribute + " = " + value + "), a"
        + " negative delay: use 0 or more milliseconds";
  }

  public static String baseAboveMax(String method, long baseDelayMs, long maxDelayMs) {
    return "[" + RETRY_SETTINGS + "] " + method + " has baseDelayMs " + baseDelayMs + " above maxDelayMs "
        + maxDelayMs + ": the cap must be at least the base delay; lower baseDelayMs or raise maxDelayMs";
  }

  public static String retryDisabled(String method, String risk) {
    return "[" + RETRY_DISABLED + "] " + method + " is " + risk + " but @Retry(maxAttempts = 1) turns"
        + " retries off: remove @Retry to get the defaults, or raise maxAttempts";
  }

  public static String retryRedundant(String method) {
    return "[" + RETRY_REDUNDANT + "] " + method + " is R3 (irreversible), which is never retried:"
        + " @Retry(maxAttempts = 1) changes nothing; remove it";
  }

  public static String retryOnNothing(String method) {
    return "[" + RETRY_ON_NOTHING + "] " + method + " has @Retry(on = {}), so no failure is retried: list"
        + " the fault classes to retry (T1, T2, T3 by default) or use maxAttempts = 1";
  }

  public static String retryStorm(String method, int maxAttempts) {
    return "[" + RETRY_STORM + "] " + method + " allows " + maxAttempts + " attempts per step: during an"
        + " outage every caller multiplies the load by that much; use at most " + STORM_THRESHOLD
        + " and let the budgets and breakers do the rest";
  }
}
