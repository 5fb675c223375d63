package dev.hfr.runtime.timeout;

import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Bounds calls that run on the caller's own thread: one shared timer thread interrupts a call whose time
 * is up. No thread hop and no allocation per call: each calling thread owns one reusable {@link Watch};
 * starting and stopping it are two volatile writes and a volatile read. The timer thread sleeps until the
 * earliest deadline of all watches and is woken only when a new deadline is earlier than that.
 *
 * <p>A call that ignores the interrupt cannot be taken back from its own thread; it is counted
 * ({@link #ignoredInterrupts()}) once it is still running a grace period after the interrupt, so the tool
 * can be fixed. Thread-safe.
 */
public final class AttemptTimer implements AutoCloseable {

  /** A watch's deadline when it is not running. */
  private static final long IDLE = 0L;
  /** The timer decided to interrupt and is doing it. */
  private static final long FIRING = -1L;
  /** The interrupt is delivered: the owner clears it when it stops. */
  private static final long FIRED = -2L;
  private static final long NEVER = Long.MAX_VALUE;

  private final LongSupplier nanoTime;
  private final long graceNanos;
  private final CopyOnWriteArrayList<Watch> watches = new CopyOnWriteArrayList<>();
  private final ThreadLocal<Watch> mine = ThreadLocal.withInitial(this::register);
  private final AtomicLong ignoredInterrupts = new AtomicLong();
  private final Thread thread;
  /** When the timer thread will next look, {@link #NEVER} while it waits for a first deadline. */
  private volatile long wakeAt = NEVER;
  private volatile boolean closed;

  /**
   * @param nanoTime the clock deadlines are read on (the engine's), in nanoseconds
   * @param grace how long after its interrupt a call still running counts as ignoring it, in nanoseconds
   */
  public AttemptTimer(LongSupplier nanoTime, long grace) {
    this.nanoTime = nanoTime;
    this.graceNanos = grace;
    this.thread = new Thread(this::run, "hfr-attempt-timer");
    thread.setDaemon(true);
    thread.start();
  }

  /** A timer on {@link System#nanoTime()} with a 100 ms grace. */
  public static AttemptTimer system() {
    return new AttemptTimer(System::nanoTime, 100_000_000L);
  }

  /**
   * Starts bounding the calling thread's current call: at {@code deadlineNanos} (on this timer's clock) the
   * thread is interrupted unless {@link Watch#stop()} came first. One call per thread at a time; nested
   * calls keep the outer bound.
   *
   * @return the thread's watch, to stop
   */
  public Watch start(long deadlineNanos) {
    Watch w = mine.get();
    if (w.deadline != IDLE) {
      // A call inside a bounded call (a reconcile inside a tool, a nested proxy): the outer bound holds.
      w.nested++;
      return w;
    }
    w.interruptedAt = 0L;
    w.deadline = deadlineNanos;
    if (deadlineNanos < wakeAt) {
      LockSupport.unpark(thread);
    }
    return w;
  }

  /** Calls that were still running {@code grace} after their interrupt: tools that ignore interruption. */
  public long ignoredInterrupts() {
    return ignoredInterrupts.get();
  }

  /** Stops the timer thread; running watches are no longer interrupted. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
  }

  private Watch register() {
    Watch w = new Watch(Thread.currentThread());
    watches.add(w);
    return w;
  }

  private void run() {
    while (!closed) {
      long now = nanoTime.getAsLong();
      long earliest = NEVER;
      for (Watch w : watches) {
        long d = w.deadline;
        if (d > IDLE) {
          if (now - d >= 0) {
            fire(w, d, now);
            d = now + graceNanos;
          }
          earliest = Math.min(earliest, d);
        } else if (d == FIRED && w.interruptedAt != 0L) {
          long graceEnd = w.interruptedAt + graceNanos;
          if (now - graceEnd >= 0) {
            w.interruptedAt = 0L;
            ignoredInterrupts.incrementAndGet();
          } else {
            earliest = Math.min(earliest, graceEnd);
          }
        }
        if (!w.owner.isAlive() && w.deadline == IDLE) {
          watches.remove(w);
        }
      }
      wakeAt = earliest;
      // A start that raced this scan either sees the new wakeAt and unparks, or is seen here.
      if (earlierThan(earliest)) {
        continue;
      }
      if (earliest == NEVER) {
        LockSupport.park(this);
      } else {
        LockSupport.parkNanos(this, earliest - nanoTime.getAsLong());
      }
      wakeAt = Long.MIN_VALUE; // awake: starts need not unpark while it scans
    }
  }

  private boolean earlierThan(long earliest) {
    for (Watch w : watches) {
      long d = w.deadline;
      if (d > IDLE && d < earliest) {
        return true;
      }
    }
    return false;
  }

  private static void fire(Watch w, long deadline, long now) {
    if (w.compareAndSetDeadline(deadline, FIRING)) {
      w.interruptedAt = now;
      w.owner.interrupt();
      w.deadline = FIRED;
    }
  }

  /** One thread's reusable bound. */
  public static final class Watch {
    private static final java.lang.invoke.VarHandle DEADLINE;

    static {
      try {
        DEADLINE = java.lang.invoke.MethodHandles.lookup().findVarHandle(Watch.class, "deadline", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final Thread owner;
    private volatile long deadline;
    private volatile long interruptedAt;
    private int nested;

    private Watch(Thread owner) {
      this.owner = owner;
    }

    private boolean compareAndSetDeadline(long expected, long value) {
      return DEADLINE.compareAndSet(this, expected, value);
    }

    /**
     * Stops bounding the call. Returns whether the timer interrupted it; if so, the interrupt the timer
     * delivered is cleared, so it cannot leak into the caller's next wait.
     */
    public boolean stop() {
      if (nested > 0) {
        nested--;
        return false;
      }
      long d = deadline;
      if (d > IDLE && compareAndSetDeadline(d, IDLE)) {
        return false;
      }
      while (deadline == FIRING) {
        Thread.onSpinWait();
      }
      Thread.interrupted();
      deadline = IDLE;
      return true;
    }
  }
}
