package dev.hfr.runtime.time;

import java.util.concurrent.TimeUnit;

/** Real time: the one place the engine touches the system clock and {@code Thread.sleep}. */
enum SystemTime implements Clock, Sleeper {
  INSTANCE;

  @Override
  public long nanoTime() {
    return System.nanoTime();
  }

  @Override
  public long epochMillis() {
    return System.currentTimeMillis();
  }

  @Override
  public void sleep(long nanos) throws InterruptedException {
    if (nanos > 0) {
      TimeUnit.NANOSECONDS.sleep(nanos);
    }
  }
}
