package dev.hfr.runtime.internal.engine;

import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Where the asynchronous driver waits out a backoff: a timer on a {@link ScheduledExecutorService}, so no
 * thread is held while a call waits. The user's scheduler, or one daemon thread of the engine's own,
 * started on the first wait and stopped with the engine.
 */
public final class BackoffScheduler implements AutoCloseable {

  private final ScheduledExecutorService supplied;
  private volatile ScheduledExecutorService own;

  private BackoffScheduler(ScheduledExecutorService supplied) {
    this.supplied = supplied;
  }

  /** Waits on {@code scheduler}, which the caller keeps and stops. */
  public static BackoffScheduler using(ScheduledExecutorService scheduler) {
    return new BackoffScheduler(Objects.requireNonNull(scheduler, "scheduler"));
  }

  /** Waits on a daemon thread of its own, started on first need and stopped by {@link #close()}. */
  public static BackoffScheduler ownThread() {
    return new BackoffScheduler(null);
  }

  /** Runs {@code next} after {@code delayNanos}. */
  void schedule(Runnable next, long delayNanos) {
    scheduler().schedule(next, delayNanos, TimeUnit.NANOSECONDS);
  }

  private ScheduledExecutorService scheduler() {
    if (supplied != null) {
      return supplied;
    }
    ScheduledExecutorService s = own;
    if (s == null) {
      synchronized (this) {
        s = own;
        if (s == null) {
          ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, work -> {
            Thread t = new Thread(work, "hfr-backoff");
            t.setDaemon(true);
            return t;
          });
          // A call that gave up its wait must not keep a timer in the queue.
          timer.setRemoveOnCancelPolicy(true);
          own = timer;
          s = timer;
        }
      }
    }
    return s;
  }

  /** Stops the engine's own thread, if it started one; a supplied scheduler is left running. */
  @Override
  public void close() {
    ScheduledExecutorService s = own;
    if (s != null) {
      s.shutdownNow();
    }
  }
}
