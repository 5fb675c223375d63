package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.observation.CallScope;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.internal.context.TaskContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Runs the state machine of an asynchronous tool's call without holding a thread while it waits: the
 * same steps as {@link BlockingDriver}, but an attempt continues on the thread that completes its stage,
 * and a backoff is a timer on the {@link BackoffScheduler} instead of a sleep. The call's task is current
 * while its steps run, and when its future completes (so stages the caller chains see it too).
 */
final class AsyncDriver {

  private final StateMachine machine;
  private final BackoffScheduler scheduler;
  private final EngineFailure failure;

  AsyncDriver(StateMachine machine, BackoffScheduler scheduler, EngineFailure failure) {
    this.machine = machine;
    this.scheduler = scheduler;
    this.failure = failure;
  }

  /** Runs {@code c} from INIT; the future completes with the accepted result or the structured failure. */
  <R> CompletableFuture<R> run(Call<R> c, AsyncToolInvocation<R> invocation) {
    CompletableFuture<R> out = new CompletableFuture<>();
    resume(c, invocation, Next.to(ControllerState.INIT), out);
    return out;
  }

  /** Runs {@code c} from {@code next}, the state the inline read left it in. */
  <R> CompletableFuture<R> from(Call<R> c, AsyncToolInvocation<R> invocation, Next next) {
    CompletableFuture<R> out = new CompletableFuture<>();
    resume(c, invocation, next, out);
    return out;
  }

  /**
   * Continues {@code c}, whose first attempt the inline read started at {@code t0} and left under way as {@code
   * attempt}: RUN_STEP's wait for it, bounded as RUN_STEP bounds any attempt, then the steps after it.
   */
  <R> CompletableFuture<R> awaitAttempt(Call<R> c, AsyncToolInvocation<R> invocation, CompletionStage<R> attempt,
      long t0) {
    CompletableFuture<R> out = new CompletableFuture<>();
    c.state = ControllerState.RUN_STEP;
    CompletionStage<Next> following;
    try {
      following = machine.runStep.awaitAsync(c, attempt, t0, machine.runStep.boundNanos(c, t0));
    } catch (RuntimeException | LinkageError | AssertionError e) {
      failed(c, invocation, e, out);
      return out;
    }
    continueAfter(c, invocation, following, out);
    return out;
  }

  /** One attempt as if HFR were absent; what the tool fails with reaches the caller unchanged. */
  static <R> CompletableFuture<R> direct(AsyncToolInvocation<R> invocation) {
    try {
      CompletionStage<R> stage = invocation.start(null);
      return stage == null ? CompletableFuture.failedFuture(new NullPointerException("the tool returned null"))
          : stage.toCompletableFuture();
    } catch (Exception e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  /** Runs steps from {@code next} until the call ends, waits or starts an attempt. */
  private <R> void resume(Call<R> c, AsyncToolInvocation<R> invocation, Next next, CompletableFuture<R> out) {
    // The call's task is bound while its steps run here; the task bound before is put back as it was bound (by its
    // open or handed over), so that a close of its scope on another thread still lets go of this thread.
    TaskState explicit = c.explicitTask();
    TaskContext.Slot bound = null; // the slot bound to the call's task here, if it was not this thread's task
    TaskState previous = null;
    boolean previousByOpen = false;
    if (explicit != null) {
      TaskContext.Slot slot = TaskContext.slot();
      if (slot.task() != explicit) {
        bound = slot;
        previousByOpen = slot.boundByOpen();
        previous = slot.swap(explicit);
      }
    }
    CallScope.Handle scope = c.scope.open();
    try {
      Next n = next;
      while (true) {
        ControllerState s = n.state;
        c.state = s;
        if (n.waits && n.delayNanos > 0) {
          Next after = Next.to(s);
          scheduler.schedule(() -> resume(c, invocation, after, out), n.delayNanos);
          return;
        }
        if (s == ControllerState.ACCEPT) {
          out.complete(machine.accept(c));
          return;
        }
        if (StateMachine.failsCall(s)) {
          out.completeExceptionally(machine.terminate(c, s));
          return;
        }
        if (s == ControllerState.RUN_STEP) {
          // Continues on the thread that completes the attempt (at once if it already has).
          continueAfter(c, invocation, machine.runStep.runAsync(c, invocation), out);
          return;
        }
        n = machine.step(c, s);
      }
    } catch (ToolCallException e) {
      out.completeExceptionally(e);
    } catch (LostKey e) {
      out.completeExceptionally(machine.lostKey(c, e));
    } catch (RuntimeException | LinkageError | AssertionError e) {
      failed(c, invocation, e, out);
    } finally {
      scope.close();
      if (bound != null) {
        bound.restore(previous, previousByOpen);
      }
    }
  }

  /** The steps after the attempt, when {@code following} completes with the next state. */
  private <R> void continueAfter(Call<R> c, AsyncToolInvocation<R> invocation, CompletionStage<Next> following,
      CompletableFuture<R> out) {
    following.whenComplete((next, engineFailure) -> {
      if (engineFailure == null) {
        resume(c, invocation, next, out);
      } else {
        failed(c, invocation, RunStep.unwrap(engineFailure), out);
      }
    });
  }

  /** §4.1 for an asynchronous call: a read fails open, a write fails closed (see {@link EngineFailure}). */
  private <R> void failed(Call<R> c, AsyncToolInvocation<R> invocation, Throwable engineFailure, CompletableFuture<R> out) {
    try {
      if (!failure.failsOpen(c, engineFailure)) {
        out.completeExceptionally(failure.failClosed(c, engineFailure));
      } else if (c.hasResult) {
        out.complete(c.result);
      } else {
        direct(invocation).whenComplete((r, t) -> {
          if (t == null) {
            out.complete(r);
          } else {
            out.completeExceptionally(RunStep.unwrap(t));
          }
        });
      }
    } catch (RuntimeException | Error broken) {
      out.completeExceptionally(broken);
    }
  }
}
