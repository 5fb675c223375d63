package dev.hfr.bench;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A single updating line on stderr while a phase runs: phase, tasks done of total, rate and time left.
 * Updated four times a second from a daemon thread; {@link #done} ends the line.
 */
public final class Progress implements AutoCloseable {

  private final PrintStream out;
  private final boolean enabled;
  private final ScheduledExecutorService ticker;
  private final AtomicLong done = new AtomicLong();
  private volatile String phase = "";
  private volatile long total;
  private volatile long startNanos;
  private ScheduledFuture<?> task;

  /** Progress on {@code out}; a disabled progress prints nothing (tests). */
  public Progress(PrintStream out, boolean enabled) {
    this.out = out;
    this.enabled = enabled;
    this.ticker = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hfr-bench-progress");
      t.setDaemon(true);
      return t;
    });
  }

  /** A progress that prints nothing. */
  public static Progress silent() {
    return new Progress(System.err, false);
  }

  /** Starts a phase of {@code total} units. */
  public synchronized void start(String phase, long total) {
    this.phase = phase;
    this.total = total;
    this.done.set(0);
    this.startNanos = System.nanoTime();
    if (enabled && task == null) {
      task = ticker.scheduleAtFixedRate(this::print, 250, 250, TimeUnit.MILLISECONDS);
    }
  }

  /** {@code n} more units are done. */
  public void advance(long n) {
    done.addAndGet(n);
  }

  /** Ends the phase's line. */
  public synchronized void done() {
    if (task != null) {
      task.cancel(false);
      task = null;
    }
    if (enabled) {
      print();
      out.println();
    }
  }

  private void print() {
    long d = done.get();
    long t = Math.max(1, total);
    double seconds = (System.nanoTime() - startNanos) / 1e9;
    double rate = seconds > 0 ? d / seconds : 0;
    double left = rate > 0 ? (t - d) / rate : 0;
    out.print(String.format(Locale.ROOT, "\r%-28s %,12d / %,d  %5.1f %%  %,9.0f /s  %4.0f s left   ",
        phase, d, t, 100.0 * d / t, rate, Math.max(0, left)));
    out.flush();
  }

  @Override
  public void close() {
    ticker.shutdownNow();
  }
}
