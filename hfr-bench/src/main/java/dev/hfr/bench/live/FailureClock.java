package dev.hfr.bench.live;

/**
 * When the running task (on this thread) first saw a failed call, for recovery time: the live tools
 * report their failed HTTP calls here.
 */
public final class FailureClock {

  private static final ThreadLocal<long[]> FIRST = new ThreadLocal<>();

  private FailureClock() {}

  static void start() {
    FIRST.set(new long[] {-1});
  }

  /** Notes a failed call now, if it is the task's first. */
  public static void failed() {
    long[] first = FIRST.get();
    if (first != null && first[0] < 0) {
      first[0] = System.nanoTime();
    }
  }

  /** Ends the task's clock; the time of its first failure, or -1. */
  static long stop() {
    long[] first = FIRST.get();
    FIRST.remove();
    return first == null ? -1 : first[0];
  }
}
