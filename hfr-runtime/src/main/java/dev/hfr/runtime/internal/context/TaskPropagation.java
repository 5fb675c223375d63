package dev.hfr.runtime.internal.context;

import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextRegistry;
import io.micrometer.context.ContextScheduledExecutorService;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * {@code TaskScope.wrap(...)}: work handed to another thread runs in the task that was current where it
 * was handed over — or in no task if there was none (a pool thread never keeps a task from earlier work).
 * Only the task is carried, through a registry of its own: what else context-propagation knows (MDC,
 * tracing) is left to the application's own choice of wrapping.
 */
public final class TaskPropagation {

  private static final ContextSnapshotFactory SNAPSHOTS = ContextSnapshotFactory.builder()
      .contextRegistry(new ContextRegistry().registerThreadLocalAccessor(new TaskContextAccessor()))
      .clearMissing(true)
      .build();

  private TaskPropagation() {}

  /** The current thread's task, to be set around work on another thread. */
  public static ContextSnapshot capture() {
    return SNAPSHOTS.captureAll();
  }

  /** {@code work}, run in the task current now. */
  public static Runnable wrap(Runnable work) {
    return capture().wrap(Objects.requireNonNull(work, "work"));
  }

  /** {@code work}, run in the task current now. */
  public static <V> Callable<V> wrap(Callable<V> work) {
    return capture().wrap(Objects.requireNonNull(work, "work"));
  }

  /** An executor that runs each task in the task current where it was submitted. */
  public static Executor wrap(Executor executor) {
    Objects.requireNonNull(executor, "executor");
    return work -> executor.execute(wrap(work));
  }

  /** An executor service that runs each task in the task current where it was submitted. */
  public static ExecutorService wrap(ExecutorService executor) {
    return ContextExecutorService.wrap(Objects.requireNonNull(executor, "executor"), TaskPropagation::capture);
  }

  /** A scheduler that runs each task in the task current where it was scheduled. */
  public static ScheduledExecutorService wrap(ScheduledExecutorService executor) {
    return ContextScheduledExecutorService.wrap(Objects.requireNonNull(executor, "executor"), TaskPropagation::capture);
  }
}
