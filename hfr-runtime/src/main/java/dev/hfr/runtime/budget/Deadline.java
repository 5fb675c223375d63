package dev.hfr.runtime.budget;

import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.internal.time.Nanos;
import java.time.Duration;
import java.util.Objects;

/**
 * A task's deadline D on the injected clock's monotonic time line, and the check of paper §4.8: a retry is
 * worth making only if {@code t + d + t_step + t_verify ≤ D}. Immutable; the sum saturates instead of
 * overflowing, so an enormous estimate never wraps round into "allowed".
 */
public final class Deadline {

  /** No deadline: every check passes. */
  public static final Deadline NONE = new Deadline(Long.MAX_VALUE, false);

  private final long deadlineNanos;
  private final boolean bounded;

  private Deadline(long deadlineNanos, boolean bounded) {
    this.deadlineNanos = deadlineNanos;
    this.bounded = bounded;
  }

  /** A deadline at the given instant of {@link Clock#nanoTime()}. */
  public static Deadline atNanos(long deadlineNanos) {
    return new Deadline(deadlineNanos, true);
  }

  /** A deadline {@code timeout} after the clock's current time. */
  public static Deadline after(Clock clock, Duration timeout) {
    Objects.requireNonNull(clock, "clock");
    Objects.requireNonNull(timeout, "timeout");
    if (timeout.isNegative()) {
      throw new IllegalArgumentException("timeout must not be negative, was " + timeout);
    }
    return new Deadline(Nanos.saturatedAdd(clock.nanoTime(), Nanos.of(timeout)), true);
  }

  /**
   * Whether a retry started now still finishes, verified, by the deadline:
   * {@code nowNanos + delayNanos + stepNanos + verifyNanos ≤ D}.
   *
   * @param nowNanos the clock's current time t
   * @param delayNanos the backoff before the retry, d_k
   * @param stepNanos the estimated duration of the step, t_step
   * @param verifyNanos the estimated duration of verification, t_verify
   */
  public boolean allows(long nowNanos, long delayNanos, long stepNanos, long verifyNanos) {
    if (delayNanos < 0 || stepNanos < 0 || verifyNanos < 0) {
      throw new IllegalArgumentException(
          "estimates must not be negative: delay " + delayNanos + ", step " + stepNanos + ", verify " + verifyNanos);
    }
    if (!bounded) {
      return true;
    }
    long finish = Nanos.saturatedAdd(Nanos.saturatedAdd(Nanos.saturatedAdd(nowNanos, delayNanos), stepNanos), verifyNanos);
    return finish <= deadlineNanos;
  }

  /** Nanoseconds left until the deadline (negative once passed); {@link Long#MAX_VALUE} for {@link #NONE}. */
  public long remainingNanos(long nowNanos) {
    return bounded ? Nanos.saturatedAdd(deadlineNanos, nowNanos == Long.MIN_VALUE ? Long.MAX_VALUE : -nowNanos) : Long.MAX_VALUE;
  }

  /** Whether the deadline has passed. */
  public boolean expired(long nowNanos) {
    return bounded && nowNanos > deadlineNanos;
  }

  /** Whether this is a real deadline (not {@link #NONE}). */
  public boolean bounded() {
    return bounded;
  }

  /** The deadline instant on the clock's monotonic time line. */
  public long deadlineNanos() {
    return deadlineNanos;
  }

  @Override
  public String toString() {
    return bounded ? "Deadline[at " + deadlineNanos + " ns]" : "Deadline[none]";
  }
}
