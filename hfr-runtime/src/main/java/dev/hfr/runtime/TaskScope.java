package dev.hfr.runtime;

import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.engine.TaskState;

/**
 * One open task: calls made on this thread while it is open (through generated proxies or
 * {@link Hfr#execute}) join it implicitly — they share its budgets, deadline and limits, get their
 * step numbers (and so their idempotency keys) from it, and are counted in its {@link #report()}.
 *
 * <pre>{@code
 * try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-42").deadline(Duration.ofSeconds(30)).build())) {
 *   Order order = orders.createOrder("sku-1", 2);      // a generated proxy: joins the task
 *   ...
 *   TaskReport report = task.report();
 * }
 * }</pre>
 *
 * <p>Closing restores the scope that was open before on this thread. A scope is bound to the thread that
 * opened it; use {@link #bindCurrentThread()} to let another thread's calls join it.
 */
public final class TaskScope implements AutoCloseable {

  private final ThreadLocal<TaskState> binding;
  private final TaskSpec spec;
  private final TaskState state;
  private final TaskState previous;
  private boolean closed;

  TaskScope(ThreadLocal<TaskState> binding, TaskSpec spec, TaskState state) {
    this.binding = binding;
    this.spec = spec;
    this.state = state;
    this.previous = binding.get();
    binding.set(state);
  }

  /** The task's spec. */
  public TaskSpec spec() {
    return spec;
  }

  /** What happened in the task so far. */
  public TaskReport report() {
    return state.report();
  }

  /** The structured outcome of the task's last call ({@code degraded} is visible here), or {@code null}. */
  public ToolOutcome lastOutcome() {
    return state.lastOutcome();
  }

  /** Whether the engine asked the planner to replan (repeated action, or a rejection with nothing new to try). */
  public boolean replanRequested() {
    return state.replanRequested();
  }

  /**
   * Counts one agent turn against the task's {@code max_turns} (and its wall-time and cost limits).
   *
   * @return {@code true} if the turn may go ahead, {@code false} if a limit is reached: stop or replan
   */
  public boolean nextTurn() {
    if (state.limits() == null) {
      return true;
    }
    TaskLimit refused = state.limits().onTurn();
    return refused == null;
  }

  /** Adds spent cost (money or tokens, in the unit of the task's {@code maxCost}). */
  public void recordCost(double amount) {
    if (state.limits() != null) {
      state.limits().recordCost(amount);
    }
  }

  /**
   * Lets calls made on the current thread join this task too (for a task whose calls run on several
   * threads); returns a handle that unbinds again when closed.
   */
  public AutoCloseable bindCurrentThread() {
    TaskState before = binding.get();
    binding.set(state);
    return () -> {
      if (before == null) {
        binding.remove();
      } else {
        binding.set(before);
      }
    };
  }

  /** Ends the task on this thread: later calls no longer join it. Idempotent. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (binding.get() == state) {
      if (previous == null) {
        binding.remove();
      } else {
        binding.set(previous);
      }
    }
  }

  @Override
  public String toString() {
    return "TaskScope[" + spec.tenant() + "/" + spec.taskId() + (closed ? ", closed" : "") + "]";
  }
}
