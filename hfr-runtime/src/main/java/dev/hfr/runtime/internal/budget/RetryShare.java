package dev.hfr.runtime.internal.budget;

import dev.hfr.runtime.time.Clock;
import java.util.concurrent.atomic.LongAdder;

/**
 * The part of a tenant's retry budget that grows with its traffic: retries may add up to {@code ratio} of the
 * tenant's calls over the last {@value #SLOTS} seconds (the retry budgets of Finagle and Envoy, gRPC's retry
 * throttling). A busy tenant earns many retries, a quiet one few; a dying target's retries stay a fixed share of
 * the load, however long the storm.
 *
 * <p>Counting a call is one {@link LongAdder} increment and no clock read, so the clean path pays nothing else;
 * the calls are spread over one-second slots only when a retry is asked for (under this object's lock, on the
 * failure path), by interpolating between the counts seen then. Retries taken are kept per slot and leave the
 * window with it.
 */
public final class RetryShare {

  /** The window's length in seconds (Finagle's default time to live of a deposit). */
  static final int SLOTS = 10;
  private static final long SLOT_NANOS = 1_000_000_000L;

  private final Clock clock;
  private final double ratio;
  private final LongAdder calls = new LongAdder();

  // Guarded by this.
  /** The calls counted before each slot began (cumulative), by slot index modulo SLOTS. */
  private final long[] callsBefore = new long[SLOTS];
  private final int[] retries = new int[SLOTS];
  private long slot;
  private int retriesInWindow;
  private long lastCalls;
  private long lastNanos;

  /**
   * @param ratio retries allowed per call, within [0, 10]; 0 earns none (only the floor is left)
   */
  public RetryShare(Clock clock, double ratio) {
    if (!(ratio >= 0 && ratio <= 10)) {
      throw new IllegalArgumentException("ratio must be within [0, 10], was " + ratio);
    }
    this.clock = clock;
    this.ratio = ratio;
    this.lastNanos = clock.nanoTime();
    this.slot = Math.floorDiv(lastNanos, SLOT_NANOS);
  }

  /** The tenant's call counter: one increment per call, the first attempt of each (never its retries). */
  public LongAdder calls() {
    return calls;
  }

  /** Retries per call this share allows. */
  public double ratio() {
    return ratio;
  }

  /** Takes one retry from the share if the tenant's recent calls have earned one. */
  public synchronized boolean tryTake() {
    if (available(advance()) <= 0) {
      return false;
    }
    retries[index(slot)]++;
    retriesInWindow++;
    return true;
  }

  /** Gives back a retry taken in the current second (it was then not made); {@code false} if there is none to give back. */
  public synchronized boolean giveBack() {
    advance();
    int i = index(slot);
    if (retries[i] == 0) {
      return false;
    }
    retries[i]--;
    retriesInWindow--;
    return true;
  }

  /** Retries the share would grant now. */
  public synchronized int available() {
    return (int) Math.max(0, available(advance()));
  }

  /**
   * How long until the share earns its next retry, at the tenant's current rate of calls: at most a second,
   * when the window's oldest slot leaves it and gives back its retries; 0 when one is available now.
   */
  public synchronized long nanosUntilAvailable() {
    long now = clock.nanoTime();
    long total = advance();
    if (available(total) > 0) {
      return 0L;
    }
    long toNextSlot = SLOT_NANOS - Math.floorMod(now, SLOT_NANOS);
    long callsInWindow = total - callsBefore[index(slot - SLOTS + 1)];
    if (ratio == 0 || callsInWindow == 0) {
      return toNextSlot;
    }
    double perSecond = callsInWindow / (double) SLOTS;
    long owed = (long) (retriesInWindow - ratio * callsInWindow) + 1;
    long byCalls = (long) (owed / ratio / perSecond * SLOT_NANOS);
    return Math.max(1L, Math.min(toNextSlot, byCalls));
  }

  private long available(long total) {
    long earned = (long) (ratio * (total - callsBefore[index(slot - SLOTS + 1)]));
    return earned - retriesInWindow;
  }

  /**
   * Moves the window to the current second: the slots begun since the last look get the number of calls made
   * before them, interpolated between the last count and this one, and lose their old retries. Returns the
   * calls counted so far. Under lock.
   */
  private long advance() {
    long now = clock.nanoTime();
    long total = calls.sum();
    long current = Math.floorDiv(now, SLOT_NANOS);
    if (current > slot) {
      long first = Math.max(slot + 1, current - SLOTS + 1);
      if (current - slot >= SLOTS) {
        java.util.Arrays.fill(retries, 0);
        retriesInWindow = 0;
      }
      long span = Math.max(1L, now - lastNanos);
      for (long s = first; s <= current; s++) {
        int i = index(s);
        retriesInWindow -= retries[i];
        retries[i] = 0;
        long sinceLast = Math.max(0L, s * SLOT_NANOS - lastNanos);
        callsBefore[i] = lastCalls + (long) ((total - lastCalls) * Math.min(1.0, sinceLast / (double) span));
      }
      slot = current;
    }
    lastCalls = total;
    lastNanos = now;
    return total;
  }

  private static int index(long s) {
    return (int) Math.floorMod(s, (long) SLOTS);
  }

  @Override
  public synchronized String toString() {
    return "RetryShare[" + ratio + " of calls, " + retriesInWindow + " taken in the last " + SLOTS + " s]";
  }
}
