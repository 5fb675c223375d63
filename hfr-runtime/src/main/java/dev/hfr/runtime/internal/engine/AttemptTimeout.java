package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.timeout.AttemptTimeoutException;
import dev.hfr.runtime.internal.context.TaskPropagation;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The engine's time bounds: an attempt gets the tool's timeout ({@code @Timeout}, YAML {@code timeout_ms}),
 * cut short by the task's deadline; a reconcile call gets {@code reconcile_timeout_ms}; a compensation the
 * tool's timeout. The call runs on the caller's thread and one shared {@link AttemptTimer} (started on
 * first use) interrupts it; a call that then ends in an exception ends in an {@link
 * AttemptTimeoutException} — a T3 — with that exception as its cause. A call that returned its result
 * keeps it, late or not: the result is real (for a write, proof that it committed).
 *
 * <p>A tool whose attempt kept running past its interrupt (blocking socket I/O does) is marked by the timer;
 * from then on its bounded attempts run on a thread of their own ({@link #abandonable}) and the caller stops
 * waiting at the bound: the attempt is abandoned, counted, and its late result discarded. The first such
 * attempt cannot be abandoned — it runs on the caller's thread — only counted.
 *
 * <p>A call without any bound costs nothing here: the checks are field reads.
 */
public final class AttemptTimeout implements AutoCloseable {

  /** How long an interrupted call may still run before it counts as ignoring its interrupt. */
  // Long enough that a tool which does answer its interrupt is not mistaken for one that does not on a machine
  // so loaded that the interrupted thread waits a while for a core (100 ms did, at a load average of 60).
  public static final long DEFAULT_GRACE_NANOS = 500_000_000L;

  private final Clock clock;
  private final long graceNanos;
  private volatile AttemptTimer timer;
  private volatile ThreadPoolExecutor hops;
  private final AtomicLong abandoned = new AtomicLong();
  private final AtomicInteger abandonedRunning = new AtomicInteger();
  private boolean closed;

  /** Bounds on {@code clock}, the engine's clock. */
  public AttemptTimeout(Clock clock, long graceNanos) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.graceNanos = graceNanos;
  }

  /**
   * The bound of an attempt that starts at {@code startNanos}, in nanoseconds: the policy's timeout, or less
   * when the task's {@code deadline} comes sooner; 0 when nothing bounds it.
   */
  long attemptBoundNanos(CallPolicy policy, Deadline deadline, long startNanos) {
    long bound = policy.timeoutMs() > 0 ? policy.timeoutMs() * 1_000_000L : Long.MAX_VALUE;
    if (deadline.bounded()) {
      bound = Math.min(bound, Math.max(1L, deadline.remainingNanos(startNanos)));
    }
    return bound == Long.MAX_VALUE ? 0L : bound;
  }

  /** Whether an attempt of this policy under the task's {@code deadline} is bounded at all (two field reads). */
  static boolean bounded(CallPolicy policy, Deadline deadline) {
    return policy.timeoutMs() > 0 || deadline.bounded();
  }

  /** Starts the bound of a call on this thread; stop the watch in a {@code finally}. */
  AttemptTimer.Watch start(long deadlineNanos) {
    return timer().start(deadlineNanos);
  }

  /** As {@link #start(long)}, marking {@code rt} as a tool that ignores interruption if this call does. */
  AttemptTimer.Watch start(long deadlineNanos, ToolRuntime rt) {
    return timer().start(deadlineNanos, rt.onIgnoredInterrupt);
  }

  /**
   * Runs {@code attempt} on a thread of its own and waits at most {@code boundNanos} for it. Past that the
   * attempt is abandoned: interrupted once more, left to finish on its thread (counted while it runs),
   * whatever it returns or throws later discarded; the caller gets an {@link AttemptTimeoutException} (a T3:
   * a read is retried, a write's outcome is unknown and reconciled before anything is resent).
   */
  <R> R abandonable(Callable<R> attempt, long boundNanos, String what) throws Exception {
    Hop<R> hop = new Hop<>(TaskPropagation.wrap(attempt));
    hops().execute(hop);
    try {
      return hop.get(boundNanos, TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      if (!hop.abandon()) {
        return hop.get(); // it finished just now: its answer is real
      }
      throw AttemptTimeoutException.abandoned(what, boundNanos);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof Error error) {
        throw error;
      }
      throw (Exception) cause;
    } catch (InterruptedException e) {
      hop.abandon();
      throw e;
    }
  }

  /** Attempts given up on because their tool ignores interruption. */
  public long abandoned() {
    return abandoned.get();
  }

  /** Abandoned attempts whose threads are still running: the leak, right now. */
  public int abandonedRunning() {
    return abandonedRunning.get();
  }

  /** An attempt on a hop thread that knows whether it finished before its caller gave up on it. */
  private final class Hop<R> extends FutureTask<R> {
    private static final int RUNNING = 0;
    private static final int FINISHED = 1;
    private static final int ABANDONED = 2;
    private final AtomicInteger state = new AtomicInteger(RUNNING);

    Hop(Callable<R> attempt) {
      super(attempt);
    }

    @Override
    public void run() {
      try {
        super.run();
      } finally {
        if (!state.compareAndSet(RUNNING, FINISHED)) {
          abandonedRunning.decrementAndGet();
        }
      }
    }

    /** Gives up on the attempt; false if it had already finished. */
    boolean abandon() {
      if (!state.compareAndSet(RUNNING, ABANDONED)) {
        return false;
      }
      abandoned.incrementAndGet();
      abandonedRunning.incrementAndGet();
      cancel(true);
      return true;
    }
  }

  private ThreadPoolExecutor hops() {
    ThreadPoolExecutor h = hops;
    if (h != null) {
      return h;
    }
    synchronized (this) {
      if (hops == null) {
        if (closed) {
          throw new IllegalStateException("the engine is closed");
        }
        // Threads made on demand, one per attempt in flight; an idle one ends after a minute. Daemons: an
        // abandoned attempt that never returns must not keep the JVM alive.
        AtomicInteger n = new AtomicInteger();
        hops = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 60, TimeUnit.SECONDS, new SynchronousQueue<>(), r -> {
          Thread t = new Thread(r, "hfr-abandonable-attempt-" + n.incrementAndGet());
          t.setDaemon(true);
          return t;
        });
      }
      return hops;
    }
  }

  /**
   * The tool's reconcile method, bounded by {@code reconcile_timeout_ms}. An answer that says neither present
   * nor absent (a {@code null} instead of an {@code Optional}) is thrown as unreadable: the write stays unknown,
   * never committed.
   */
  <R> Optional<R> reconcile(Call<R> c) throws Exception {
    Optional<R> found = reconcileOnce(c);
    if (found == null) {
      throw new IllegalStateException(c.tool().reconcileMethod() + " returned null instead of an Optional: HFR cannot tell"
          + " whether " + c.tool().name() + " was applied; return Optional.empty() when it was not");
    }
    return found;
  }

  private <R> Optional<R> reconcileOnce(Call<R> c) throws Exception {
    long bound = c.policy.reconcileTimeoutMs() * 1_000_000L;
    if (c.rt.ignoresInterrupts) {
      return abandonable(c.invocation::reconcile, bound, c.tool().reconcileMethod() + " (reconcile of " + c.tool().name() + ")");
    }
    AttemptTimer.Watch watch = start(clock.nanoTime() + bound, c.rt);
    Optional<R> found;
    try {
      found = c.invocation.reconcile();
    } catch (Exception e) {
      if (watch.stop()) {
        throw new AttemptTimeoutException(c.tool().reconcileMethod() + " (reconcile of " + c.tool().name() + ")", bound, e);
      }
      throw e;
    }
    watch.stop();
    return found;
  }

  /** The tool's compensate method, bounded by the tool's {@code @Timeout} when it has one. */
  void compensate(ToolDescriptor tool, ToolInvocation<?> invocation) throws Exception {
    if (tool.timeoutMs() <= 0) {
      invocation.compensate();
      return;
    }
    long bound = tool.timeoutMs() * 1_000_000L;
    AttemptTimer.Watch watch = start(clock.nanoTime() + bound);
    try {
      invocation.compensate();
    } catch (Exception e) {
      if (watch.stop()) {
        throw new AttemptTimeoutException(tool.compensateMethod() + " (compensation of " + tool.name() + ")", bound, e);
      }
      throw e;
    }
    watch.stop();
  }

  /** Calls still running {@link #DEFAULT_GRACE_NANOS} after their interrupt: tools that ignore interruption. */
  public long ignoredInterrupts() {
    AttemptTimer t = timer;
    return t == null ? 0 : t.ignoredInterrupts();
  }

  private AttemptTimer timer() {
    AttemptTimer t = timer;
    if (t != null) {
      return t;
    }
    synchronized (this) {
      if (timer == null) {
        if (closed) {
          throw new IllegalStateException("the engine is closed");
        }
        timer = new AttemptTimer(clock::nanoTime, graceNanos);
      }
      return timer;
    }
  }

  /** Stops the timer thread, if one was started, and interrupts attempts still running on hop threads. */
  @Override
  public synchronized void close() {
    closed = true;
    if (timer != null) {
      timer.close();
    }
    if (hops != null) {
      hops.shutdownNow();
    }
  }
}
