package dev.hfr.runtime.internal.context;

import dev.hfr.runtime.internal.engine.TaskState;

/**
 * The task the current thread works for: the calls made on it join that task. One slot per thread for
 * the whole JVM, so that context-propagation can carry it without knowing which engine opened the task
 * (each engine joins only its own tasks). Set by {@code TaskScope} (open, close, bind), by
 * {@code TaskScope.wrap(...)} and by {@link TaskContextAccessor}; user code uses those, not this class.
 */
public final class TaskContext {

  private static final ThreadLocal<TaskState> CURRENT = new ThreadLocal<>();

  private TaskContext() {}

  /** The task of the current thread, or {@code null}. */
  public static TaskState current() {
    return CURRENT.get();
  }

  /**
   * Makes {@code task} the current thread's task; {@code null} clears it. Clearing keeps the thread's entry
   * (holding {@code null}, so no task is kept reachable): the next open on this thread reuses it instead of
   * creating one.
   */
  public static void set(TaskState task) {
    CURRENT.set(task);
  }
}
