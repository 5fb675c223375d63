package dev.hfr.runtime.engine;

import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.timeout.AttemptTimeoutException;
import dev.hfr.runtime.timeout.AttemptTimer;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine's time bounds: an attempt gets the tool's timeout ({@code @Timeout}, YAML {@code timeout_ms}),
 * cut short by the task's deadline; a reconcile call gets {@code reconcile_timeout_ms}; a compensation the
 * tool's timeout. The call runs on the caller's thread and one shared {@link AttemptTimer} (started on
 * first use) interrupts it; a call that then ends in an exception ends in an {@link
 * AttemptTimeoutException} — a T3 — with that exception as its cause. A call that returned its result
 * keeps it, late or not: the result is real (for a write, proof that it committed).
 *
 * <p>A call without any bound costs nothing here: the checks are field reads.
 */
public final class AttemptTimeout implements AutoCloseable {

  /** How long an interrupted call may still run before it counts as ignoring its interrupt. */
  public static final long DEFAULT_GRACE_NANOS = 100_000_000L;

  private final Clock clock;
  private final long graceNanos;
  private volatile AttemptTimer timer;
  private boolean closed;

  /** Bounds on {@code clock}, the engine's clock. */
  public AttemptTimeout(Clock clock, long graceNanos) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.graceNanos = graceNanos;
  }

  /**
   * The bound of an attempt that starts at {@code startNanos}, in nanoseconds: the policy's timeout, or less
   * when the task's deadline comes sooner; 0 when nothing bounds it.
   */
  long attemptBoundNanos(CallPolicy policy, CallTask task, long startNanos) {
    long bound = policy.timeoutMs() > 0 ? policy.timeoutMs() * 1_000_000L : Long.MAX_VALUE;
    Deadline deadline = task == null ? Deadline.NONE : task.deadline();
    if (deadline.bounded()) {
      bound = Math.min(bound, Math.max(1L, deadline.remainingNanos(startNanos)));
    }
    return bound == Long.MAX_VALUE ? 0L : bound;
  }

  /** Whether an attempt of this policy in this task is bounded at all (two field reads). */
  static boolean bounded(CallPolicy policy, CallTask task) {
    return policy.timeoutMs() > 0 || (task != null && task.deadline().bounded());
  }

  /** Starts the bound of a call on this thread; stop the watch in a {@code finally}. */
  AttemptTimer.Watch start(long deadlineNanos) {
    return timer().start(deadlineNanos);
  }

  /** The tool's reconcile method, bounded by {@code reconcile_timeout_ms}. */
  <R> Optional<R> reconcile(Call<R> c) throws Exception {
    long bound = c.policy.reconcileTimeoutMs() * 1_000_000L;
    AttemptTimer.Watch watch = start(clock.nanoTime() + bound);
    Optional<R> found;
    try {
      found = c.invocation.reconcile();
    } catch (Exception e) {
      if (watch.stop()) {
        throw new AttemptTimeoutException(c.tool.reconcileMethod() + " (reconcile of " + c.tool.name() + ")", bound, e);
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

  /** Stops the timer thread, if one was started. */
  @Override
  public synchronized void close() {
    closed = true;
    if (timer != null) {
      timer.close();
    }
  }
}
