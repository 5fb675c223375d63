package dev.hfr.runtime.internal.context;

import io.micrometer.context.ThreadLocalAccessor;

/**
 * The open task as Micrometer's context-propagation sees it: registered through its ServiceLoader file
 * ({@code META-INF/services/io.micrometer.context.ThreadLocalAccessor}), so everything that propagates
 * context with {@code ContextRegistry.getInstance()} — Reactor's automatic context propagation, Spring's
 * {@code ContextPropagatingTaskDecorator}, {@code ContextExecutorService} — carries the task to the
 * thread that does the work, without code of ours in between.
 *
 * <p>Its values are {@link TaskContext#saved()}'s: the task, marked when the thread's own open bound it, so that
 * the binding put back after work run on the opening thread itself is the one that was there, and the opening
 * thread still lets go of the task when its scope is closed on another thread.
 */
public final class TaskContextAccessor implements ThreadLocalAccessor<Object> {

  /** The key under which the task is captured. */
  public static final String KEY = "dev.hfr.task";

  /** For the ServiceLoader. */
  public TaskContextAccessor() {}

  @Override
  public Object key() {
    return KEY;
  }

  @Override
  public Object getValue() {
    return TaskContext.saved();
  }

  @Override
  public void setValue(Object value) {
    TaskContext.handOver(value);
  }

  @Override
  public void setValue() {
    TaskContext.set(null);
  }

  @Override
  public void restore(Object previousValue) {
    TaskContext.restore(previousValue);
  }

  @Override
  public void restore() {
    TaskContext.set(null);
  }
}
