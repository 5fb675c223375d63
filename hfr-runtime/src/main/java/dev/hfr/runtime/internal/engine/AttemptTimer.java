package dev.hfr.runtime.internal.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

/**
 * Bounds calls that run on the caller's own thread: one shared timer thread interrupts a call whose time
 * is up. No thread hop and no allocation per call: each calling thread owns one reusable {@link Watch};
 * starting and stopping it are a few volatile writes and one compare-and-set. The timer thread sleeps
 * until the earliest deadline of all watches and is woken only when a new deadline is earlier than that.
 *
 * <p>A call that ignores the interrupt cannot be taken back from its own thread; once it is still running a
 * grace period after the interrupt it is counted ({@link #ignoredInterrupts()}) and the {@code onIgnored}
 * hook given at its start runs (on the timer thread), so the engine can run that tool's later attempts where
 * they can be abandoned. Thread-safe.
 */
public final class AttemptTimer implements AutoCloseable {

  // A watch's state packs a generation (each start takes a new one) with its phase, so the timer can
  // never interrupt a later call for an earlier call's deadline.
  private static final long IDLE = 0;
  private static final long ARMED = 1;
  private static final long FIRING = 2;
  private static final long FIRED = 3;
  private static final long PHASE = 3;
  private static final long NEVER = Long.MAX_VALUE;
  /**
   * With nothing armed the timer still wakes this often, for {@link #IDLE_ROUNDS} rounds, before it parks for
   * good: a start whose deadline is later than the next wake-up then needs no unpark (a system call), so a
   * steady stream of short bounded calls does not wake the timer once per call.
   */
  private static final long IDLE_WAKE_NANOS = 100_000_000L;
  private static final int IDLE_ROUNDS = 50;

  private final LongSupplier nanoTime;
  private final long graceNanos;
  private final CopyOnWriteArrayList<Watch> watches = new CopyOnWriteArrayList<>();
  private final ThreadLocal<Watch> mine = ThreadLocal.withInitial(this::register);
  private final AtomicLong ignoredInterrupts = new AtomicLong();
  private final Thread thread;
  /** Whether the timer thread is parked until {@link #wakeAt}; starts with an earlier deadline unpark it. */
  private volatile boolean parked;
  private volatile long wakeAt = NEVER;
  /** Whether the last scan saw any watch started since the scan before (timer thread only). */
  private boolean active;
  private volatile boolean closed;

  /**
   * @param nanoTime the clock deadlines are read on (the engine's), in nanoseconds
   * @param graceNanos how long after its interrupt a call still running counts as ignoring it
   */
  public AttemptTimer(LongSupplier nanoTime, long graceNanos) {
    this.nanoTime = nanoTime;
    this.graceNanos = graceNanos;
    this.thread = new Thread(this::run, "hfr-attempt-timer");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Starts bounding the calling thread's current call: at {@code deadlineNanos} (on this timer's clock) the
   * thread is interrupted unless {@link Watch#stop()} came first. A call inside a bounded call (a nested
   * proxy) keeps the outer bound.
   *
   * @return the thread's watch, to stop
   */
  public Watch start(long deadlineNanos) {
    return start(deadlineNanos, null);
  }

  /**
   * As {@link #start(long)}; {@code onIgnored} (made once, not per call) runs on the timer thread if the call
   * is still running the grace period after its interrupt.
   */
  public Watch start(long deadlineNanos, Runnable onIgnored) {
    Watch w = mine.get();
    long s = w.state;
    if ((s & PHASE) != IDLE) {
      w.nested++;
      return w;
    }
    w.deadline = deadlineNanos;
    w.onIgnored = onIgnored;
    w.state = (s & ~PHASE) + 4 + ARMED;
    if (parked && deadlineNanos - wakeAt < 0) {
      LockSupport.unpark(thread);
    }
    return w;
  }

  /** Calls that were still running the grace period after their interrupt: tools that ignore interruption. */
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
    int idleRounds = 0;
    while (!closed) {
      long earliest = scan();
      if (earliest == NEVER && (active || idleRounds < IDLE_ROUNDS)) {
        // Nothing due, but calls are being bounded (or were lately): look again soon rather than park for good.
        idleRounds = active ? 0 : idleRounds + 1;
        earliest = nanoTime.getAsLong() + IDLE_WAKE_NANOS;
      } else if (earliest != NEVER) {
        idleRounds = 0;
      }
      wakeAt = earliest;
      parked = true;
      // A start that raced the scan either sees parked and unparks, or is seen by this second look.
      if (scan() - earliest < 0) {
        parked = false;
        continue;
      }
      if (earliest == NEVER) {
        LockSupport.park(this);
      } else {
        LockSupport.parkNanos(this, earliest - nanoTime.getAsLong());
      }
      parked = false;
    }
  }

  /** Interrupts the calls whose time is up; returns the next time anything is due. */
  private long scan() {
    long now = nanoTime.getAsLong();
    long earliest = NEVER;
    active = false;
    for (Watch w : watches) {
      long s = w.state;
      long phase = s & PHASE;
      long generation = s & ~PHASE;
      if (generation != w.seenGeneration) {
        w.seenGeneration = generation;
        active = true;
      }
      if (phase == ARMED) {
        long d = w.deadline;
        if (w.state != s) {
          // It changed under us: a call ended and maybe another began. Not looked at again at once (a thread
          // that arms and disarms millions of times a second would keep the timer spinning): a start after
          // parked was set unparks the timer itself when its deadline is earlier than the wake-up.
          continue;
        }
        if (now - d >= 0) {
          fire(w, s, now);
          earliest = earliestOf(earliest, now + graceNanos);
        } else {
          earliest = earliestOf(earliest, d);
        }
      } else if (phase == FIRED && w.interruptedAt != 0L) {
        long graceEnd = w.interruptedAt + graceNanos;
        if (now - graceEnd >= 0) {
          w.interruptedAt = 0L;
          ignoredInterrupts.incrementAndGet();
          Runnable hook = w.onIgnored;
          if (hook != null) {
            hook.run();
          }
        } else {
          earliest = earliestOf(earliest, graceEnd);
        }
      } else if (phase == IDLE && !w.owner.isAlive()) {
        watches.remove(w);
      }
    }
    return earliest;
  }

  private static long earliestOf(long a, long b) {
    return a == NEVER ? b : b - a < 0 ? b : a;
  }

  private static void fire(Watch w, long armed, long now) {
    long generation = armed & ~PHASE;
    if (w.compareAndSetState(armed, generation + FIRING)) {
      w.interruptedAt = now;
      w.owner.interrupt();
      w.state = generation + FIRED;
    }
  }

  /** One thread's reusable bound. */
  public static final class Watch {
    private static final VarHandle STATE;

    static {
      try {
        STATE = MethodHandles.lookup().findVarHandle(Watch.class, "state", long.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final Thread owner;
    private volatile long state;
    // Plain fields: written before the volatile write of state that arms the watch, read by the timer only
    // after its volatile read of state, so that write publishes them (and saves two fences per call).
    private long deadline;
    private Runnable onIgnored;
    private volatile long interruptedAt;
    /** The generation the timer saw at its last scan (timer thread only). */
    private long seenGeneration;
    private int nested;

    private Watch(Thread owner) {
      this.owner = owner;
    }

    private boolean compareAndSetState(long expected, long value) {
      return STATE.compareAndSet(this, expected, value);
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
      long s = state;
      long generation = s & ~PHASE;
      if ((s & PHASE) == ARMED && compareAndSetState(s, generation + IDLE)) {
        return false;
      }
      while ((state & PHASE) == FIRING) {
        Thread.onSpinWait();
      }
      Thread.interrupted();
      interruptedAt = 0L;
      state = generation + IDLE;
      return true;
    }
  }
}
