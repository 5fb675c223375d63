package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.time.VirtualTime;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A discrete-event scheduler on {@link VirtualTime}: what is scheduled runs, on the thread that calls {@link
 * #runUntil}, when virtual time reaches it, in time order. With it the engine's asynchronous driver waits out
 * backoffs and budget waits in no real time, so minutes of traffic at hundreds of calls a second run in
 * seconds, deterministically. Only {@code schedule(Runnable, ...)} and {@code execute} are supported: that is
 * all the engine's backoff scheduler uses.
 */
final class VirtualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

  private record Event(long atNanos, long seq, Runnable work) {}

  private final VirtualTime time;
  private final PriorityQueue<Event> events =
      new PriorityQueue<>((a, b) -> a.atNanos != b.atNanos ? Long.compare(a.atNanos, b.atNanos) : Long.compare(a.seq, b.seq));
  private long seq;

  VirtualScheduler(VirtualTime time) {
    this.time = time;
  }

  /** Runs {@code work} at virtual time {@code atNanos} (now, if that has passed). */
  void at(long atNanos, Runnable work) {
    events.add(new Event(Math.max(atNanos, time.nanoTime()), seq++, work));
  }

  /** Runs every event due up to {@code endNanos} in order, moving the clock to each; then moves it to the end. */
  void runUntil(long endNanos) {
    while (!events.isEmpty() && events.peek().atNanos <= endNanos) {
      Event e = events.poll();
      long now = time.nanoTime();
      if (e.atNanos > now) {
        time.advance(e.atNanos - now);
      }
      e.work.run();
    }
    long now = time.nanoTime();
    if (endNanos > now) {
      time.advance(endNanos - now);
    }
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    long at = time.nanoTime() + unit.toNanos(delay);
    at(at, () -> {
      command.run();
      done.complete(null);
    });
    return new Handle(done, at);
  }

  @Override
  public void execute(Runnable command) {
    at(time.nanoTime(), command);
  }

  private final class Handle implements ScheduledFuture<Object> {
    private final CompletableFuture<Void> done;
    private final long at;

    Handle(CompletableFuture<Void> done, long at) {
      this.done = done;
      this.at = at;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(at - time.nanoTime(), TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return false;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public boolean isDone() {
      return done.isDone();
    }

    @Override
    public Object get() {
      throw new UnsupportedOperationException("a virtual scheduler's event is waited for by running it");
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException("a virtual scheduler's event is waited for by running it");
    }
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the engine");
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the engine");
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the engine");
  }

  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }
}
