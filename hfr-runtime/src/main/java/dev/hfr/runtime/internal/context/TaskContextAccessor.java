package dev.hfr.runtime.internal.context;

import dev.hfr.runtime.internal.engine.TaskState;
import io.micrometer.context.ThreadLocalAccessor;

/**
 * The open task as Micrometer's context-propagation sees it: registered through its ServiceLoader file
 * ({@code META-INF/services/io.micrometer.context.ThreadLocalAccessor}), so everything that propagates
 * context with {@code ContextRegistry.getInstance()} — Reactor's automatic context propagation, Spring's
 * {@code ContextPropagatingTaskDecorator}, {@code ContextExecutorService} — carries the task to the
 * thread that does the work, without code of ours in between.
 */
public final class TaskContextAccessor implements ThreadLocalAccessor<TaskState> {

  /** The key under which the task is captured. */
  public static final String KEY = "dev.hfr.task";

  /** For the ServiceLoader. */
  public TaskContextAccessor() {}

  @Override
  public Object key() {
    return KEY;
  }

  @Override
  public TaskState getValue() {
    return TaskContext.current();
  }

  @Override
  public void setValue(TaskState value) {
    TaskContext.set(value);
  }

  @Override
  public void setValue() {
    TaskContext.set(null);
  }

  @Override
  public void restore(TaskState previousValue) {
    TaskContext.set(previousValue);
  }

  @Override
  public void restore() {
    TaskContext.set(null);
  }
}
