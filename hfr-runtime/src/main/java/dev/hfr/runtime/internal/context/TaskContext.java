package dev.hfr.runtime.internal.context;

import dev.hfr.runtime.internal.engine.TaskState;

/**
 * The task the current thread works for: the calls made on it join that task. One slot per thread for
 * the whole JVM, so that context-propagation can carry it without knowing which engine opened the task
 * (each engine joins only its own tasks). Set by {@code TaskScope} (open, close, bind), by
 * {@code TaskScope.wrap(...)} and by {@link TaskContextAccessor}; user code uses those, not this class.
 *
 * <p>The thread's slot is a small holder kept in one {@code ThreadLocal} entry, created the first time the
 * thread gets a task and kept (holding {@code null} when it has none, so no task stays reachable): binding
 * and unbinding are then one lookup and a field write, and an open does not create an entry each time.
 */
public final class TaskContext {

  /** The current thread's task, in a holder so that changing it does not touch the thread's map. */
  private static final class Slot {
    TaskState task;
  }

  private static final ThreadLocal<Slot> CURRENT = new ThreadLocal<>();

  private TaskContext() {}

  /** The task of the current thread, or {@code null}. */
  public static TaskState current() {
    Slot slot = CURRENT.get();
    return slot == null ? null : slot.task;
  }

  /** Makes {@code task} the current thread's task; {@code null} clears it. */
  public static void set(TaskState task) {
    swap(task);
  }

  /** Makes {@code task} the current thread's task ({@code null}: none) and returns the one it replaces. */
  public static TaskState swap(TaskState task) {
    Slot slot = CURRENT.get();
    if (slot == null) {
      if (task == null) {
        return null;
      }
      slot = new Slot();
      CURRENT.set(slot);
    }
    TaskState before = slot.task;
    slot.task = task;
    return before;
  }

  /** If {@code expected} is the current thread's task, makes {@code next} current instead; says whether it did. */
  public static boolean replace(TaskState expected, TaskState next) {
    Slot slot = CURRENT.get();
    if (slot == null || slot.task != expected) {
      return false;
    }
    slot.task = next;
    return true;
  }
}
