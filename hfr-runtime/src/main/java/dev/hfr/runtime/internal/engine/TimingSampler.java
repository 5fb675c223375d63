package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.telemetry.CallTiming;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Decides which clean calls of one tool read the clock, under {@link CallTiming#ADAPTIVE}. A tool is
 * sampled while its timed clean calls take under {@link #FAST_CALL_NANOS} on average and follow each
 * other less than {@link #BUSY_GAP_NANOS} apart (per call): then a random one call in
 * {@link #SAMPLE_ONE_IN} is timed, and an untimed call uses the latest reading where it needs a time.
 * That reading is at most about {@code SAMPLE_ONE_IN × BUSY_GAP_NANOS} old while the tool stays busy.
 *
 * <p>Shared by every thread calling the tool. The fields are written without synchronisation on purpose:
 * a lost update of the running mean or of the counter only delays a decision by a call.
 */
final class TimingSampler {

  static final int SAMPLE_ONE_IN = 16;
  static final long FAST_CALL_NANOS = 20_000L;
  static final long BUSY_GAP_NANOS = 100_000L;
  /** Timed clean calls before sampling may start: a tool called a few times is always timed. */
  static final int WARM_UP_CALLS = 64;

  private final boolean adaptive;
  private volatile boolean sampling;
  private volatile long lastReading;
  private long meanNanos;
  private int timedCalls;

  TimingSampler(CallTiming timing, long now) {
    this.adaptive = timing == CallTiming.ADAPTIVE;
    this.lastReading = now;
  }

  /** Whether this call should read the clock. */
  boolean shouldTime() {
    return !sampling || (ThreadLocalRandom.current().nextInt() & (SAMPLE_ONE_IN - 1)) == 0;
  }

  /** The latest reading taken by a timed clean call: the time of an untimed one. */
  long lastReading() {
    return lastReading;
  }

  /** A timed clean call ran from {@code start} to {@code end}: updates the mean and the decision. */
  void timed(long start, long end) {
    if (!adaptive) {
      return;
    }
    long duration = end - start;
    int n = timedCalls;
    long mean = n == 0 ? duration : meanNanos + ((duration - meanNanos) >> 3);
    meanNanos = mean;
    if (n < WARM_UP_CALLS) {
      timedCalls = n + 1;
    }
    long gap = end - lastReading;
    lastReading = end;
    boolean was = sampling;
    long callsSinceLastReading = was ? SAMPLE_ONE_IN : 1;
    boolean now = n >= WARM_UP_CALLS && mean < FAST_CALL_NANOS && gap < BUSY_GAP_NANOS * callsSinceLastReading;
    if (now != was) {
      // Written only on a change: the flag is read by every call, from every core.
      sampling = now;
    }
  }

  /** Whether calls are being sampled now (for tests and diagnostics). */
  boolean sampling() {
    return sampling;
  }
}
