package dev.hfr.runtime.internal.budget;

import dev.hfr.runtime.budget.RetryTokens;
import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A lock-free token bucket: at most {@code capacity} tokens per {@code window}, refilled continuously (one
 * token every {@code window / capacity}), starting full. Implemented as the generic cell rate algorithm
 * on one {@link AtomicLong} (the "theoretical arrival time"), so taking a token is a read and a
 * compare-and-set, and never allocates.
 *
 * <p>As with any token bucket, the limit is a rate with a burst: at most {@code capacity} tokens at once
 * and {@code capacity} per window on average; a full bucket emptied at the start of a window and
 * refilled during it lets one window of length W see up to {@code 2·capacity} tokens, never more.
 */
public final class TokenBucket implements RetryTokens {

  private final Clock clock;
  private final int capacity;
  private final long intervalNanos;
  private final long burstNanos;
  /** When the bucket would be full again if nothing more were taken; at or before now means full. */
  private final AtomicLong theoreticalArrival;

  /**
   * A full bucket of {@code capacity} tokens per {@code window} on {@code clock}.
   *
   * @param capacity tokens per window; zero makes a bucket that never grants
   * @param window the refill window, positive
   */
  public TokenBucket(Clock clock, int capacity, Duration window) {
    this.clock = Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(window, "window");
    if (capacity < 0) {
      throw new IllegalArgumentException("capacity must not be negative, was " + capacity);
    }
    if (window.isNegative() || window.isZero()) {
      throw new IllegalArgumentException("window must be positive, was " + window);
    }
    long windowNanos = window.compareTo(Duration.ofNanos(Long.MAX_VALUE / 2)) >= 0 ? Long.MAX_VALUE / 2 : window.toNanos();
    this.capacity = capacity;
    this.intervalNanos = capacity == 0 ? windowNanos : Math.max(1, windowNanos / capacity);
    this.burstNanos = intervalNanos * capacity;
    this.theoreticalArrival = new AtomicLong(clock.nanoTime());
  }

  /** Takes one token if one is available now. */
  @Override
  public boolean tryAcquire() {
    while (true) {
      // The time is read after the arrival time it is compared with: read before, it may predate another
      // thread's token (and all the time that passed until then), and a bucket with tokens would refuse.
      long tat = theoreticalArrival.get();
      long now = clock.nanoTime();
      long start = Math.max(tat, now);
      long next = start + intervalNanos;
      if (next - now > burstNanos) {
        return false;
      }
      if (theoreticalArrival.compareAndSet(tat, next)) {
        return true;
      }
    }
  }

  /** Gives a token back (for a retry that was granted and then not made); never fills beyond capacity. */
  @Override
  public void refund() {
    while (true) {
      long tat = theoreticalArrival.get();
      long now = clock.nanoTime();
      if (tat <= now) {
        return;
      }
      if (theoreticalArrival.compareAndSet(tat, Math.max(now, tat - intervalNanos))) {
        return;
      }
    }
  }

  /** Tokens available now. */
  @Override
  public int available() {
    long now = clock.nanoTime();
    long used = Math.max(0, theoreticalArrival.get() - now);
    return (int) Math.max(0, (burstNanos - used) / intervalNanos);
  }

  /** How long until the next token: 0 when one is available now. */
  @Override
  public long nanosUntilAvailable() {
    long now = clock.nanoTime();
    long wait = theoreticalArrival.get() + intervalNanos - now - burstNanos;
    return Math.max(0L, wait);
  }

  /** Tokens per window. */
  public int capacity() {
    return capacity;
  }

  @Override
  public String toString() {
    return "TokenBucket[" + available() + "/" + capacity + "]";
  }
}
