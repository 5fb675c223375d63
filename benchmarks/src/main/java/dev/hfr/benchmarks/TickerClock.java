package dev.hfr.benchmarks;

import dev.hfr.runtime.time.Clock;
import java.util.concurrent.locks.LockSupport;

/**
 * A clock read from memory: a daemon thread stores {@code System.nanoTime()} about every millisecond and
 * {@link #nanoTime()} returns the latest store. It exists to show, in the same run, what the host's clock
 * reading costs a benchmark row (on this VM a {@code System.nanoTime()} is 40-50 ns): the row run on it is
 * the row without the reading. Not a clock to run an engine on: every duration it measures is a millisecond
 * coarse, and the thread wakes a thousand times a second.
 */
final class TickerClock implements Clock, AutoCloseable {

  private static final long TICK_NANOS = 1_000_000L;

  private volatile long nanos = System.nanoTime();
  private volatile boolean running = true;
  private final Thread ticker;

  TickerClock() {
    ticker = new Thread(this::tick, "bench-ticker-clock");
    ticker.setDaemon(true);
    ticker.start();
  }

  private void tick() {
    while (running) {
      LockSupport.parkNanos(TICK_NANOS);
      nanos = System.nanoTime();
    }
  }

  @Override
  public long nanoTime() {
    return nanos;
  }

  @Override
  public long epochMillis() {
    return System.currentTimeMillis();
  }

  @Override
  public void close() throws InterruptedException {
    running = false;
    ticker.join();
  }
}
