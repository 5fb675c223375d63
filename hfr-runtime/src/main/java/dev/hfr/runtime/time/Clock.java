package dev.hfr.runtime.time;

/**
 * The engine's only source of time. Production uses {@link #system()}; the benchmark and tests use a
 * {@link VirtualTime}, so the whole engine runs on virtual time. Nothing in the engine reads
 * {@code System.nanoTime} or {@code System.currentTimeMillis} directly.
 */
public interface Clock {

  /** Monotonic time in nanoseconds, for durations and deadlines. */
  long nanoTime();

  /** Wall-clock time in epoch milliseconds, for records and events. */
  long epochMillis();

  /** The system clock. */
  static Clock system() {
    return SystemTime.INSTANCE;
  }
}
