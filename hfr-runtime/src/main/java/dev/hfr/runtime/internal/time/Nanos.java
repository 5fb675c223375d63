package dev.hfr.runtime.internal.time;

import java.time.Duration;

/**
 * Saturating arithmetic on nanosecond amounts: deadlines and delays are added without wrapping round
 * to negative values, so a huge delay reads as "after every deadline", never as "in the past".
 */
public final class Nanos {

  private Nanos() {}

  /** {@code a + b}, clamped to {@link Long#MAX_VALUE} / {@link Long#MIN_VALUE} instead of overflowing. */
  public static long saturatedAdd(long a, long b) {
    long sum = a + b;
    // Overflow happened iff both operands have the same sign and the sum's sign differs.
    if (((a ^ sum) & (b ^ sum)) < 0) {
      return a < 0 ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
    return sum;
  }

  /** A non-negative {@code duration} in nanoseconds, clamped to {@link Long#MAX_VALUE} instead of overflowing. */
  public static long of(Duration duration) {
    return duration.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0 ? Long.MAX_VALUE : duration.toNanos();
  }

  /** {@code millis} in nanoseconds, clamped to {@link Long#MAX_VALUE}; negative input is refused. */
  public static long fromMillis(long millis) {
    if (millis < 0) {
      throw new IllegalArgumentException("millis must not be negative, was " + millis);
    }
    return millis > Long.MAX_VALUE / 1_000_000L ? Long.MAX_VALUE : millis * 1_000_000L;
  }
}
