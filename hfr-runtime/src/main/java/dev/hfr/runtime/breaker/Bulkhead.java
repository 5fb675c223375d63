package dev.hfr.runtime.breaker;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bulkhead (paper §4.7): at most {@code maxConcurrent} calls to one target at a time, so a slow target
 * cannot take all the threads. Some permits can be held back for critical calls, so low-priority work is
 * turned away (and degrades) first.
 *
 * <p>Non-blocking: {@link #tryAcquire} answers at once; a refused call is not queued. Every granted permit
 * must be given back with {@link #release()}. Lock-free and allocation-free.
 */
public final class Bulkhead {

  private final TargetKind kind;
  private final String name;
  private final int maxConcurrent;
  private final int reservedForCritical;
  private final AtomicInteger inUse = new AtomicInteger();

  /**
   * A bulkhead of {@code maxConcurrent} permits, {@code reservedForCritical} of which only critical calls
   * may take.
   */
  public Bulkhead(TargetKind kind, String name, int maxConcurrent, int reservedForCritical) {
    if (kind == null) {
      throw new NullPointerException("kind");
    }
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("name must not be blank");
    }
    if (maxConcurrent < 1) {
      throw new IllegalArgumentException("maxConcurrent must be at least 1, was " + maxConcurrent);
    }
    if (reservedForCritical < 0 || reservedForCritical >= maxConcurrent) {
      throw new IllegalArgumentException(
          "reservedForCritical must be within [0, maxConcurrent - 1] = [0, " + (maxConcurrent - 1) + "], was " + reservedForCritical);
    }
    this.kind = kind;
    this.name = name;
    this.maxConcurrent = maxConcurrent;
    this.reservedForCritical = reservedForCritical;
  }

  /** Takes a permit for an ordinary call, if one outside the critical reserve is free. */
  public boolean tryAcquire() {
    return tryAcquire(false);
  }

  /** Takes a permit; a critical call may also use the reserved permits. */
  public boolean tryAcquire(boolean critical) {
    int limit = critical ? maxConcurrent : maxConcurrent - reservedForCritical;
    // One atomic add instead of a compare-and-set loop: under contention a CAS loop retries, an add does
    // not. A caller that overshoots takes its permit back at once, so no more than the limit are ever
    // admitted; near the limit, a racing caller may be refused a permit that was just being given back.
    if (inUse.incrementAndGet() <= limit) {
      return true;
    }
    inUse.decrementAndGet();
    return false;
  }

  /** Gives back a permit taken by {@link #tryAcquire}. Releasing more than was taken is a bug and is refused. */
  public void release() {
    if (inUse.decrementAndGet() < 0) {
      inUse.incrementAndGet();
      throw new IllegalStateException("bulkhead " + kind.tag() + ":" + name + " released more permits than were acquired");
    }
  }

  /** Permits in use now. */
  public int inUse() {
    return inUse.get();
  }

  /** Permits free now for a critical call. */
  public int available() {
    return Math.max(0, maxConcurrent - inUse.get());
  }

  public int maxConcurrent() {
    return maxConcurrent;
  }

  public int reservedForCritical() {
    return reservedForCritical;
  }

  public TargetKind kind() {
    return kind;
  }

  public String name() {
    return name;
  }

  @Override
  public String toString() {
    return "Bulkhead[" + kind.tag() + ":" + name + ", " + inUse.get() + "/" + maxConcurrent + "]";
  }
}
