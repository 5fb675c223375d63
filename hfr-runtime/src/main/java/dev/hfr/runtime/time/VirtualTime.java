package dev.hfr.runtime.time;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A clock that moves only when told to, and a sleeper that moves it: a backoff of 2 s takes no real
 * time. Shared by all threads that use it; {@link #advance} is atomic.
 */
public final class VirtualTime implements Clock, Sleeper {

  private final AtomicLong nanos = new AtomicLong();
  private final long epochMillisAtZero;

  /** Virtual time starting at zero nanoseconds and at the given wall-clock instant. */
  public VirtualTime(long epochMillisAtZero) {
    this.epochMillisAtZero = epochMillisAtZero;
  }

  /** Virtual time starting at zero and at the epoch. */
  public VirtualTime() {
    this(0L);
  }

  @Override
  public long nanoTime() {
    return nanos.get();
  }

  @Override
  public long epochMillis() {
    return epochMillisAtZero + nanos.get() / 1_000_000L;
  }

  /** Advances the clock by {@code nanos} instead of waiting. */
  @Override
  public void sleep(long nanos) {
    advance(nanos);
  }

  /** Moves the clock forward; negative amounts are refused. */
  public void advance(long nanos) {
    if (nanos < 0) {
      throw new IllegalArgumentException("virtual time cannot go backwards: " + nanos + " ns");
    }
    this.nanos.addAndGet(nanos);
  }
}
