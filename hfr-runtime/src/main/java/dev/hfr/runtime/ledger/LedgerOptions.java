package dev.hfr.runtime.ledger;

import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings shared by the ledger backends.
 *
 * @param clock the time stamped on records and compared with lease expiries (the engine's injected clock)
 * @param retention how long a record is kept after it settles (any state but PREPARED and UNKNOWN); then
 *     it is deleted, and a re-run of the same action after that would run again. Default 24 h.
 * @param forcePolicy when the embedded ledger forces its journal to disk (ignored by other backends)
 */
public record LedgerOptions(Clock clock, Duration retention, ForcePolicy forcePolicy) {

  /** The default retention after a record settles: 24 hours. */
  public static final Duration DEFAULT_RETENTION = Duration.ofHours(24);

  public LedgerOptions {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(retention, "retention");
    Objects.requireNonNull(forcePolicy, "forcePolicy");
    if (retention.isNegative() || retention.isZero()) {
      throw new IllegalArgumentException("retention must be positive, was " + retention);
    }
  }

  /** System clock, 24 h retention, {@link ForcePolicy#EVERY_WRITE}. */
  public static LedgerOptions defaults() {
    return new LedgerOptions(Clock.system(), DEFAULT_RETENTION, ForcePolicy.EVERY_WRITE);
  }

  public LedgerOptions withClock(Clock clock) {
    return new LedgerOptions(clock, retention, forcePolicy);
  }

  public LedgerOptions withRetention(Duration retention) {
    return new LedgerOptions(clock, retention, forcePolicy);
  }

  public LedgerOptions withForcePolicy(ForcePolicy forcePolicy) {
    return new LedgerOptions(clock, retention, forcePolicy);
  }
}
