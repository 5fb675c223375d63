package dev.hfr.runtime.breaker;

import java.util.Locale;

/** Why a breaker opened: one of the four trip conditions of paper §4.7, or a failed half-open probe. */
public enum TripReason {
  /** errors / requests exceeded the error-rate threshold. */
  ERROR_RATE,
  /** 429s / requests exceeded the rate-limit threshold. */
  RATE_LIMITED_RATE,
  /** The latency percentile (p95 by default) exceeded its threshold. */
  SLOW_CALLS,
  /** K failures in a row. */
  CONSECUTIVE_FAILURES,
  /** A half-open probe failed; the cooldown is extended. */
  PROBE_FAILED,
  /** Another worker of the fleet saw the target fail and opened its breaker (see {@code dev.hfr.runtime.fleet}). */
  FLEET;

  /** The lower-case reason for events and tags. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
