package dev.hfr.runtime.ledger.internal;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Decides when a backend deletes settled records older than the retention: at most once per 1/24 of the
 * retention (once an hour by default), found due by a write: the write that claims it deletes, or hands the delete
 * to a thread of its backend's (the PostgreSQL ledger's sweep thread).
 */
public final class RetentionSweep {

  private final long retentionMillis;
  private final long intervalMillis;
  private final AtomicLong lastSweep;

  public RetentionSweep(Duration retention, long nowMillis) {
    this.retentionMillis = retention.toMillis();
    this.intervalMillis = Math.max(1, retentionMillis / 24);
    this.lastSweep = new AtomicLong(nowMillis);
  }

  /** The cutoff to expire records before, when a sweep is due now (claimed by one caller); else -1. */
  public long dueCutoff(long nowMillis) {
    long last = lastSweep.get();
    if (nowMillis - last < intervalMillis || !lastSweep.compareAndSet(last, nowMillis)) {
      return -1;
    }
    return nowMillis - retentionMillis;
  }

  /** The cutoff for a sweep now, unconditionally (on open). */
  public long cutoff(long nowMillis) {
    return nowMillis - retentionMillis;
  }
}
