package dev.hfr.runtime.breaker;

/**
 * The sliding window of a breaker: the last {@code size} call outcomes no older than {@code maxAgeNanos},
 * with running counts so every update and every rate is O(1) and nothing is allocated after
 * construction. Not thread-safe: the owning {@link CircuitBreaker} guards it.
 */
final class OutcomeWindow {

  static final byte ERROR = 1;
  static final byte RATE_LIMITED = 2;
  static final byte SLOW = 4;

  private final long[] times;
  private final byte[] flags;
  private final long maxAgeNanos;
  private int oldest;
  private int count;
  private int errors;
  private int rateLimited;
  private int slow;

  OutcomeWindow(int size, long maxAgeNanos) {
    this.times = new long[size];
    this.flags = new byte[size];
    this.maxAgeNanos = maxAgeNanos;
  }

  void record(long nowNanos, byte outcome) {
    expire(nowNanos);
    if (count == times.length) {
      evictOldest();
    }
    int slot = (oldest + count) % times.length;
    times[slot] = nowNanos;
    flags[slot] = outcome;
    count++;
    errors += outcome & ERROR;
    rateLimited += (outcome & RATE_LIMITED) >> 1;
    slow += (outcome & SLOW) >> 2;
  }

  /**
   * Records {@code n} successes at {@code nowNanos}: the same window as {@code n} calls of
   * {@link #record} with no flags, in at most {@code size} steps.
   */
  void recordSuccesses(long n, long nowNanos) {
    long steps = Math.min(n, times.length);
    for (long i = 0; i < steps; i++) {
      record(nowNanos, (byte) 0);
    }
  }

  /** Drops the calls older than the window's duration. */
  void expire(long nowNanos) {
    while (count > 0 && nowNanos - times[oldest] > maxAgeNanos) {
      evictOldest();
    }
  }

  void clear() {
    oldest = 0;
    count = 0;
    errors = 0;
    rateLimited = 0;
    slow = 0;
  }

  private void evictOldest() {
    byte outcome = flags[oldest];
    errors -= outcome & ERROR;
    rateLimited -= (outcome & RATE_LIMITED) >> 1;
    slow -= (outcome & SLOW) >> 2;
    oldest = (oldest + 1) % times.length;
    count--;
  }

  int count() {
    return count;
  }

  int errors() {
    return errors;
  }

  int rateLimited() {
    return rateLimited;
  }

  int slow() {
    return slow;
  }
}
