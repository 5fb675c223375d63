package dev.hfr.runtime.internal.budget;

import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.budget.TaskLimitTracker;
import dev.hfr.runtime.internal.access.InstalledOnce;

/**
 * The engine's way in to a {@link TaskLimitTracker}'s lock, which is no part of the tracker's API: the engine numbers,
 * counts and admits a task's call in one critical section of it. The tracker's methods for it are package-private; its
 * class initialiser installs the {@link Access} that reaches them.
 */
public final class TrackerLocking {

  /** What the tracker's class hands over: its package-private methods. */
  public interface Access {
    void lock(TaskLimitTracker tracker);

    void unlock(TaskLimitTracker tracker);

    TaskLimit beforeToolCallHoldingLock(TaskLimitTracker tracker, String tool, boolean write, long nowNanos,
        boolean exactReading);
  }

  private static final InstalledOnce<Access> INSTALLED = new InstalledOnce<>("TaskLimitTracker");

  /**
   * The access as a constant, which the JIT folds into the calls below. Read first by a call with a tracker, so
   * after the tracker's class installed it.
   */
  private static final class Installed {
    static final Access ACCESS = INSTALLED.get();
  }

  private TrackerLocking() {}

  /**
   * Called by {@code TaskLimitTracker}'s class initialiser only.
   *
   * @throws IllegalStateException if an access was installed already
   */
  public static void install(Access trackerAccess) {
    INSTALLED.install(trackerAccess);
  }

  /**
   * Takes {@code tracker}'s lock, to count more of its task in the same critical section as a check ({@link
   * #beforeToolCallHoldingLock}); give it back with {@link #unlock} in a {@code finally}. Not reentrant: no method of
   * the tracker may be called while holding it.
   */
  public static void lock(TaskLimitTracker tracker) {
    Installed.ACCESS.lock(tracker);
  }

  /** Gives back the lock {@link #lock} took. */
  public static void unlock(TaskLimitTracker tracker) {
    Installed.ACCESS.unlock(tracker);
  }

  /**
   * {@link TaskLimitTracker#beforeToolCall(String, boolean, long)} ({@code exactReading}) or {@link
   * TaskLimitTracker#beforeToolCallAtRecentReading} (not), for a caller that holds the tracker's lock ({@link #lock}).
   */
  public static TaskLimit beforeToolCallHoldingLock(TaskLimitTracker tracker, String tool, boolean write, long nowNanos,
      boolean exactReading) {
    return Installed.ACCESS.beforeToolCallHoldingLock(tracker, tool, write, nowNanos, exactReading);
  }
}
