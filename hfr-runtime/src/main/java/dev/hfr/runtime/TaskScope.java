package dev.hfr.runtime;

import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.internal.context.ClosedElsewhere;
import dev.hfr.runtime.internal.context.TaskContext;
import dev.hfr.runtime.internal.context.TaskPropagation;
import dev.hfr.runtime.internal.engine.TaskState;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * One open task: calls made on this thread while it is open (through generated proxies or
 * {@link Hfr#execute}) join it implicitly — they share its budgets, deadline and limits, get their
 * step numbers (and so their idempotency keys) from it, and are counted in its {@link #report()}. Its
 * calls may run on many threads at once: its counters, limits and budgets are exact under concurrency.
 *
 * <pre>{@code
 * try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-42").deadline(Duration.ofSeconds(30)).build())) {
 *   Order order = orders.createOrder("sku-1", 2);      // a generated proxy: joins the task
 *   ...
 *   TaskReport report = task.report();
 * }
 * }</pre>
 *
 * <p>Closing restores the scope that was open before on this thread. Closed on another thread, it does the
 * same for the thread that opened it, at that thread's next call (or {@link Hfr#currentTask()}): the opening
 * thread never joins its closed task again, even if it ran work of the task itself in between (wrapped work run
 * inline, a binding by hand it ended). Work handed over to other threads ({@link #wrap}, {@link
 * #bindCurrentThread()}, context-propagation) still finishes in the task after the close.
 *
 * <p><b>Work on other threads.</b> The task follows work handed to other threads: wrap the executor
 * ({@link #wrap(ExecutorService)}, {@link #wrap(Executor)}) or the work ({@link #wrap(Runnable)}, {@link
 * #wrap(Callable)}), and each piece runs in the task that was current where it was handed over —
 * including {@code CompletableFuture.supplyAsync(..., TaskScope.wrap(pool))} and the stages chained on
 * it. Anything that propagates Micrometer context-propagation's {@code ContextRegistry} (Reactor with
 * automatic context propagation, Spring's {@code ContextPropagatingTaskDecorator}, {@code
 * ContextExecutorService}) carries it without code of ours: the task is a registered {@code
 * ThreadLocalAccessor} (key {@value dev.hfr.runtime.internal.context.TaskContextAccessor#KEY}). {@link
 * #bindCurrentThread()} joins a thread to the task by hand.
 */
public final class TaskScope implements AutoCloseable {

  static {
    // The rule for a thread whose task was closed elsewhere, for the context code that hands work over from it.
    ClosedElsewhere.install(TaskScope::openTaskInstead);
  }

  /** The engine that opened the task: only its calls join it. */
  final Hfr engine;
  // Three fields (24 bytes): the slot of the thread the task was opened on and bound to is the state's (its
  // openSlot(), null: bound to none), the compensator the engine's.
  private final TaskState state;
  private final TaskState previous;

  /** Opens {@code state}'s scope, binding it to the thread its open bound it to (its {@code openSlot()}), if any. */
  TaskScope(Hfr engine, TaskState state) {
    this.engine = engine;
    this.state = state;
    state.openedBy(this);
    TaskContext.Slot slot = state.openSlot();
    if (slot != null) {
      state.replacedBindingByOpen(slot.boundByOpen());
      this.previous = slot.open(state);
    } else {
      this.previous = null;
    }
  }

  /** {@code work}, run in the task current on this thread now (or in none if there is none). */
  public static Runnable wrap(Runnable work) {
    return TaskPropagation.wrap(work);
  }

  /** {@code work}, run in the task current on this thread now (or in none if there is none). */
  public static <V> Callable<V> wrap(Callable<V> work) {
    return TaskPropagation.wrap(work);
  }

  /** {@code executor}, running each piece of work in the task current where it was handed over. */
  public static Executor wrap(Executor executor) {
    return TaskPropagation.wrap(executor);
  }

  /** {@code executor}, running each piece of work in the task current where it was submitted. */
  public static ExecutorService wrap(ExecutorService executor) {
    return TaskPropagation.wrap(executor);
  }

  /** {@code executor}, running each piece of work in the task current where it was scheduled. */
  public static ScheduledExecutorService wrap(ScheduledExecutorService executor) {
    return TaskPropagation.wrap(executor);
  }

  /** The task's spec. */
  public TaskSpec spec() {
    return state.spec();
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

  /**
   * Counts a call the engine did not run — a model call an adapter protected (hfr-langchain4j's
   * {@code HfrChatModel}), or a tool guarded some other way — in this task's {@link #report()}, and makes
   * it the task's {@link #lastOutcome()}. Its attempts count towards the report's attempts and retries;
   * it does not draw on the task's limits or retry budget, which the caller's own policy stood for. Safe
   * from any thread (a streaming model answers on its client's threads).
   *
   * @throws NullPointerException if {@code outcome} is {@code null}
   */
  public void recordOutcome(ToolOutcome outcome) {
    state.recordOutside(Objects.requireNonNull(outcome, "outcome"));
  }

  /** Adds spent cost (money or tokens, in the unit of the task's {@code maxCost}). */
  public void recordCost(double amount) {
    if (state.limits() != null) {
      state.limits().recordCost(amount);
    }
  }

  /**
   * Names the step the writes made on this thread belong to until the returned scope is closed: their
   * idempotency keys are derived from this step id, the tool and the arguments, instead of from how many
   * equal writes the task made before ({@link dev.hfr.runtime.ledger.IdempotencyKeys#keyForStep}). For an
   * agent that numbers its own steps; a re-run that uses the same step ids finds the same ledger records
   * whatever else it calls in between.
   *
   * @throws IllegalArgumentException if {@code stepId} is null or blank
   */
  public StepScope step(String stepId) {
    if (stepId == null || stepId.isBlank()) {
      throw new IllegalArgumentException("stepId must not be blank");
    }
    return new StepScope(stepId);
  }

  /**
   * The writes this task committed so far (their ledger records reached COMMITTED or
   * RECONCILED_COMMITTED), in commit order, each with its ledger state now — {@code COMPENSATED} once
   * undone. Reads the ledger.
   */
  public List<CommittedWrite> committedWrites() {
    return engine.compensator.committedWrites(state);
  }

  /**
   * Undoes one committed write of this task through its tool's compensate method (§4.5 step 4), and only
   * then marks its ledger record COMPENSATED. The compensation is a guarded write of its own: its ledger
   * record's key is {@link dev.hfr.runtime.ledger.CompensationKeys#of} of {@code ledgerKey}, so a repeated
   * request never applies it twice — a compensation already committed is not run again, and one whose
   * outcome is unknown is escalated, never re-run. Records a decision event and counts {@code
   * harness.compensations{tool,outcome}}. Works after the scope is closed too.
   *
   * @param ledgerKey the write's idempotency key (from {@link #committedWrites()})
   * @throws CompensationException if the write was not undone: not a committed write of this task, a tool
   *     without a compensate method, a record that is not COMMITTED / RECONCILED_COMMITTED (the message names
   *     tool, key and state), a key another recoverer holds, or a compensation that failed or whose
   *     outcome is unknown
   */
  public Compensation compensate(String ledgerKey) {
    return engine.compensator.compensate(state, ledgerKey);
  }

  /**
   * Undoes every write this task committed, the last first (a saga's rollback). Nothing runs unless
   * every write still to undo is committed and has a compensate method; writes already COMPENSATED are
   * skipped, so asking again after a failure resumes the rollback where it stopped.
   *
   * @return the compensations made, in the order they ran
   * @throws CompensationException on the first write that could not be undone (see {@link #compensate})
   */
  public List<Compensation> compensateAll() {
    return engine.compensator.compensateAll(state);
  }

  /**
   * Lets calls made on the current thread join this task too (for a task whose calls run on several
   * threads); returns a handle that unbinds again when closed.
   */
  public AutoCloseable bindCurrentThread() {
    TaskContext.Slot slot = TaskContext.slot();
    // Unbinding puts back the task bound before as it was bound: one bound here by its own open is still let go
    // when its scope is closed on another thread.
    boolean beforeByOpen = slot.boundByOpen();
    TaskState before = slot.swap(state);
    return () -> TaskContext.restore(before, beforeByOpen);
  }

  /**
   * Ends the task on this thread: later calls no longer join it, and its close is checkpointed in the
   * ledger, so {@link Hfr#resumePending()} no longer lists it. Idempotent.
   */
  @Override
  public void close() {
    if (!state.close()) {
      return;
    }
    engine.closed(state);
    TaskContext.Slot slot = state.openSlot();
    if (slot != null) {
      slot.replace(state, previous, state.replacedBindingByOpen());
    } else {
      TaskContext.replace(state, previous);
    }
  }

  /** The task's running state, for the engine that opened it. */
  TaskState state() {
    return state;
  }

  /**
   * The task to join instead of {@code closed}, a closed task the current thread's slot {@code here} holds. On the thread that
   * opened it, bound there by its open (the scope was closed on another thread), the scope open before is given
   * back, as closing it there would have done (and so on, if that one was closed too). Anywhere else the task was
   * handed over (wrapped work, a binding by hand, propagation) and stays joined, closed or not: work handed over
   * finishes in its task.
   */
  static TaskState openTaskInstead(TaskContext.Slot here, TaskState closed) {
    TaskState task = closed;
    while (task != null && task.closed() && here.boundByOpen()) {
      TaskScope scope = task.scope();
      if (scope == null || task.openSlot() != here || !here.replace(task, scope.previous, task.replacedBindingByOpen())) {
        break;
      }
      task = scope.previous;
    }
    return task;
  }

  @Override
  public String toString() {
    return "TaskScope[" + state.tenant() + "/" + state.taskId() + (state.closed() ? ", closed" : "") + "]";
  }
}
