package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.observation.CallScope;
import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.internal.retry.RetryGate;
import dev.hfr.runtime.time.Sleeper;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * The HFR controller: runs one tool call through the state machine of Table 9 — observe, classify,
 * check, decide, act, verify, record — and ends it with an accepted result or a {@link ToolCallException}
 * carrying the structured {@link dev.hfr.runtime.ToolOutcome}. This class is the entry point; the states
 * are the steps of {@link StateMachine} (one class each, named after the state), run by the
 * {@link BlockingDriver} for blocking tools and by the {@link AsyncDriver} for asynchronous ones.
 *
 * <p>Its rules, in the order they apply:
 *
 * <ul>
 *   <li>Every decision starts from {@link ActionTable#defaultAction}; the checks (the {@link RetryGate}'s
 *       stop conditions, budgets, deadline, breaker, ladder, criticality) only make it more conservative.
 *   <li>Writes (R1–R3) get their ledger record, keyed by {@link IdempotencyKeys#key}, before the first
 *       attempt; R1 methods get that key on every attempt. A failure that does not prove the write was
 *       not applied marks the record UNKNOWN before anything else happens, and an UNKNOWN write is only
 *       ever resent after reconciliation found it absent. R3 methods are never resent.
 *   <li>A policy refusal (T8, an approval denial) is escalated and never degraded around.
 *   <li>Results are accepted only after verification at the method's level and the quality floor.
 *   <li>If the controller itself fails, reads fail open (the tool is called as if HFR were absent) and
 *       writes fail closed (no further attempt; the call is escalated) — §4.1, {@link EngineFailure}.
 * </ul>
 *
 * <p>Thread-safe: one controller serves all calls; per-call state lives in a {@link Call}.
 */
public final class Controller {

  /** Classifications less sure than this are handled conservatively, as UNCLASSIFIED. */
  static final double MIN_CONFIDENCE = 0.5;

  private final EngineParts parts;
  private final BlockingDriver driver;
  private final AsyncDriver asyncDriver;
  private final InlineRead inlineRead;
  private final ShadowRun shadow;
  private final EngineFailure failure;

  /**
   * Assembled by {@link dev.hfr.runtime.Hfr}.
   *
   * @param parts the engine's collaborators
   * @param sleeper how the blocking driver waits out a backoff
   * @param scheduler where the asynchronous driver waits out a backoff
   */
  public Controller(EngineParts parts, Sleeper sleeper, BackoffScheduler scheduler) {
    this.parts = Objects.requireNonNull(parts, "parts");
    StateMachine machine = new StateMachine(parts);
    this.failure = new EngineFailure(parts.tools.meters(), parts.decisions, parts.oversight, parts.writes);
    this.driver = new BlockingDriver(machine, Objects.requireNonNull(sleeper, "sleeper"), failure);
    this.asyncDriver = new AsyncDriver(machine, Objects.requireNonNull(scheduler, "scheduler"), failure);
    this.inlineRead = new InlineRead(parts, machine, driver, asyncDriver, failure);
    this.shadow = new ShadowRun(parts);
  }

  /**
   * Runs {@code invocation} under HFR within {@code task}.
   *
   * @throws ToolCallException when no accepted result could be had safely
   */
  public <R> R execute(ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task) {
    if (tool.risk() == Risk.R0 && !tool.requiresApproval()) {
      return inlineRead.run(tool, invocation, task, null);
    }
    return runBlocking(tool, invocation, task);
  }

  /** The state machine from INIT on the calling thread. */
  private <R> R runBlocking(ToolDescriptor tool, ToolInvocation<R> invocation, CallTask task) {
    Call<R> c;
    try {
      c = newCall(tool, invocation, task);
    } catch (RuntimeException e) {
      return failure.beforeCall(tool, invocation, e);
    }
    return driver.run(c, Next.to(ControllerState.INIT));
  }

  /**
   * Runs an asynchronous tool's {@code invocation} under HFR within {@code task} ({@code null}: a one-call
   * task from {@code tasks}), holding no thread while it waits. The future completes with the accepted
   * result, or exceptionally with a {@link ToolCallException}.
   */
  public <R> CompletableFuture<R> executeAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation, TaskState task,
      ImplicitTasks tasks) {
    return executeAsync(tool, invocation, task, tasks, CallScope.NONE);
  }

  /** {@link #executeAsync}, with {@code scope} made current around each stretch of the call's steps. */
  public <R> CompletableFuture<R> executeAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation, TaskState task,
      ImplicitTasks tasks, CallScope scope) {
    if (scope == CallScope.NONE && tool.risk() == Risk.R0 && !tool.requiresApproval()) {
      // The clean read's fast path, as for a blocking read; with an Observation to make current around the call's
      // steps it takes the driver's way, which opens it around each stretch.
      return inlineRead.runAsync(tool, invocation, task, tasks);
    }
    Call<R> c;
    try {
      c = newCall(tool, invocation, task != null ? task : tasks.next());
    } catch (RuntimeException e) {
      return failure.beforeAsyncCall(tool, invocation, e);
    }
    c.scope = scope;
    return asyncDriver.run(c, invocation);
  }

  /** Shadow mode for an asynchronous tool (see {@link #shadow}). */
  public <R> CompletableFuture<R> shadowAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation, TaskState task,
      ImplicitTasks tasks) {
    return shadow.runAsync(tool, invocation, task != null ? task : tasks.next());
  }

  /** An asynchronous tool's call as if HFR were absent (mode OFF). */
  public static <R> CompletableFuture<R> direct(AsyncToolInvocation<R> invocation) {
    return AsyncDriver.direct(invocation);
  }

  private <R> Call<R> newCall(ToolDescriptor tool, ToolInvocation<R> invocation, CallTask task) {
    ToolRuntime rt = parts.tools.of(tool);
    Criticality.Level criticality = effectiveCriticality(task.criticality(), tool.criticality());
    ToolRuntime.TenantView view = rt.tenant(task.tenant());
    view.countCall();
    CallPolicy policy = rt.policy(task.tenant(), view, criticality);
    return new Call<>(rt, invocation, task, view, policy, task.nextStep(), parts.clock.nanoTime());
  }

  /**
   * Runs {@code invocation} under HFR outside any task scope: like {@link #execute} on a fresh one-call
   * task, which is created only when the call leaves the clean path.
   *
   * @throws ToolCallException when no accepted result could be had safely
   */
  public <R> R executeOutsideTask(ToolDescriptor tool, ToolInvocation<R> invocation, ImplicitTasks tasks) {
    if (tool.risk() != Risk.R0 || tool.requiresApproval()) {
      return runBlocking(tool, invocation, tasks.next());
    }
    return inlineRead.run(tool, invocation, null, tasks);
  }

  /**
   * Shadow mode: calls the tool once exactly as without HFR, classifies and decides what HFR would do,
   * records it (decision event with mode {@code shadow}, meters), and returns the result or rethrows
   * the exception unchanged. Budgets, breakers and the ledger are left untouched. Outside a scope
   * ({@code task == null}) the call runs in a one-call task from {@code tasks}.
   */
  public <R> R shadow(ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task, ImplicitTasks tasks) {
    return shadow.run(tool, invocation, task != null ? task : tasks.next());
  }

  /** The stricter of the task's criticality (if any) and the tool's. */
  static Criticality.Level effectiveCriticality(Criticality.Level task, Criticality.Level tool) {
    if (task == null) {
      return tool;
    }
    return task.compareTo(tool) >= 0 ? task : tool;
  }

  /** Rethrows checked exceptions unchanged: shadow mode and failing open must not wrap what the tool threw. */
  static final class Sneaky {
    private Sneaky() {}

    @SuppressWarnings("unchecked")
    static <T extends Throwable> T rethrow(Throwable t) throws T {
      throw (T) t;
    }
  }
}
