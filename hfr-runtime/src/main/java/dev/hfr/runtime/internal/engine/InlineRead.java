package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.internal.SharedSuccessCounts;
import dev.hfr.runtime.internal.telemetry.SharedCleanCallCounts;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.TaskLimit;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.timeout.AttemptTimeoutException;
import dev.hfr.runtime.verify.ResultVerification;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The clean read's fast path: a read that answers at once and passes verification never builds a
 * {@link Call}. It runs INIT's admission, RUN_STEP, OBSERVE, VERIFY and ACCEPT on locals, and hands any
 * other case to the {@link BlockingDriver} at the state it reached. An asynchronous read takes the same path
 * when the tool's future is already complete with a result ({@link #runAsync}); a future still pending, or
 * failed, goes to the {@link AsyncDriver} with its attempt under way.
 */
final class InlineRead {

  private final HfrFeatures features;
  private final Clock clock;
  private final ToolRuntimes tools;
  private final ResultVerification verification;
  private final StateMachine machine;
  private final BlockingDriver driver;
  private final AsyncDriver asyncDriver;
  private final EngineFailure failure;
  private final AttemptTimeout timeouts;
  private final Oversight oversight;

  InlineRead(EngineParts parts, StateMachine machine, BlockingDriver driver, AsyncDriver asyncDriver,
      EngineFailure failure) {
    this.asyncDriver = asyncDriver;
    this.timeouts = parts.timeouts;
    this.oversight = parts.oversight;
    this.features = parts.features;
    this.clock = parts.clock;
    this.tools = parts.tools;
    this.verification = parts.verification;
    this.machine = machine;
    this.driver = driver;
    this.failure = failure;
  }

  /**
   * Runs a read (R0, no approval) in {@code task}, or outside any scope ({@code task == null}, one-call tasks
   * from {@code tasks}). The clean read — first attempt answered and verified — runs inline without a
   * {@link Call}: INIT's admission, RUN_STEP, OBSERVE, VERIFY and ACCEPT on locals. Anything else (a
   * task limit, a failure, a rejection, an open breaker) creates the call with the state reached, and the
   * state machine continues from there, so behaviour is that of the {@link BlockingDriver} from INIT. Outside a scope
   * not even the task is created. In a task or not, the call may go untimed ({@link TimingSampler}).
   */
  @SuppressWarnings("unchecked") // read() answers an R for a blocking invocation
  <R> R run(ToolDescriptor tool, ToolInvocation<R> invocation, TaskState task, ImplicitTasks tasks) {
    return (R) read(tool, invocation, null, task, tasks);
  }

  /**
   * {@link #run} for an asynchronous read: when the tool's future is already complete with a result, the whole
   * call runs here as a blocking clean read does and the returned future is complete; anything else continues
   * on the {@link AsyncDriver} as the asynchronous call it is.
   */
  @SuppressWarnings("unchecked") // read() answers a CompletableFuture<R> for an asynchronous invocation
  <R> CompletableFuture<R> runAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation, TaskState task,
      ImplicitTasks tasks) {
    return (CompletableFuture<R>) read(tool, invocation, invocation, task, tasks);
  }

  /**
   * The read itself; {@code async} is {@code invocation} when the tool is asynchronous (the answer is then the
   * call's future), else {@code null} (the answer is the result). One body for both, so they cannot drift.
   */
  private <R> Object read(ToolDescriptor tool, ToolInvocation<R> invocation, AsyncToolInvocation<R> async,
      TaskState task, ImplicitTasks tasks) {
    ToolRuntime rt;
    ToolRuntime.TenantView view;
    CallPolicy policy;
    CircuitBreaker breaker;
    VerifyLevel level;
    boolean timed;
    long start;
    long step = 0;
    try {
      rt = tools.of(tool);
      String tenant = task != null ? task.tenant() : tasks.tenant();
      Criticality.Level criticality = Controller.effectiveCriticality(task != null ? task.criticality() : null, tool.criticality());
      view = rt.tenant(tenant);
      view.countCall();
      policy = rt.policy(tenant, view, criticality);
      breaker = view.breakers == null ? null : view.breakers[0];
      level = features.verification() ? policy.verifyLevel() : null;
      // A call in a task is sampled like any other: its task's wall-time limit is checked at the tool's latest
      // reading, and at an exact one at least every 16th call (TaskLimitTracker.beforeToolCallAtRecentReading).
      // Verification above V0 may take real time of its own; and a latency threshold needs every latency.
      timed = rt.timing.shouldTime() || (level != null && level != VerifyLevel.V0)
          || (breaker != null && breaker.needsLatency());
      start = timed ? clock.nanoTime() : rt.timing.lastReading();
    } catch (RuntimeException e) {
      return beforeCall(tool, invocation, async, e);
    }
    // The locals mirror the fields of Call that INIT, RUN_STEP, OBSERVE and VERIFY set on a read.
    R result = null;
    boolean hasResult = false;
    if (task != null) {
      // INIT's admission, which numbers the read too; a refusal takes the state machine's way out, with the
      // refusal already counted.
      TaskLimit refusal;
      try {
        long admission = machine.init.admitRead(task, tool, start, timed);
        step = Admission.step(admission);
        refusal = Admission.refusal(admission);
      } catch (RuntimeException e) {
        return beforeCall(tool, invocation, async, e);
      }
      if (refusal != null) {
        Call<R> refused = new Call<>(rt, invocation, task, view, policy, step, timed ? start : clock.nanoTime());
        refused.refusal = refusal;
        return handOff(refused, async, Next.to(ControllerState.INIT));
      }
    }
    Call<R> c;
    Next next;
    try {
      // RUN_STEP on the method itself (a read: no ledger key).
      Bulkhead bulkhead = features.circuitBreaker() ? rt.bulkhead(-1) : null;
      Reason blocked = null;
      boolean probe = false;
      if (breaker != null && !breaker.tryAcquire()) {
        blocked = Reason.CIRCUIT_OPEN;
      } else if (bulkhead != null && !bulkhead.tryAcquire(policy.criticality() == Criticality.Level.HIGH)) {
        if (breaker != null) {
          breaker.releasePermit();
        }
        blocked = Reason.BULKHEAD_FULL;
      }
      if (blocked != null) {
        c = leaveInline(rt, invocation, task, tasks, view, policy, step, timed ? start : clock.nanoTime());
        c.blocked = blocked;
        if (blocked == Reason.CIRCUIT_OPEN) {
          c.admitAfter(Math.max(0L, breaker.openUntilNanos() - clock.nanoTime()));
        }
        next = Next.to(ControllerState.CHECK);
      } else {
        // A half-open permit is the call's: its retries are judged with it (a breaker judges calls).
        probe = breaker != null && breaker.state() == dev.hfr.runtime.breaker.CircuitState.HALF_OPEN;
        Exception error = null;
        // A bounded read is interrupted by the shared timer; an unbounded one costs two field reads here.
        long bound = 0L;
        AttemptTimer.Watch watch = null;
        Deadline deadline = task == null ? Deadline.NONE : task.deadline();
        if (async == null && AttemptTimeout.bounded(policy, deadline)) {
          long now = timed ? start : clock.nanoTime();
          bound = timeouts.attemptBoundNanos(policy, deadline, now);
          // A tool known to ignore interruption runs where it can be abandoned instead.
          watch = rt.ignoresInterrupts ? null : timeouts.start(now + bound, rt);
        }
        CompletionStage<R> pending = null;
        try {
          if (async != null) {
            // The tool's future: answered already (a cache hit), it is this read's result at once; otherwise the
            // attempt is under way and the asynchronous driver waits for it (and bounds it) from RUN_STEP.
            pending = async.start(null);
            if (pending == null) {
              throw new NullPointerException(tool.name() + " returned null instead of a CompletionStage");
            }
            if (answered(pending)) {
              result = ((CompletableFuture<R>) pending).join();
              hasResult = true;
              pending = null;
            }
          } else {
            result = bound > 0 && watch == null
                ? timeouts.abandonable(() -> invocation.proceed(null), bound, tool.name() + " attempt")
                : invocation.proceed(null);
            hasResult = true;
          }
        } catch (Exception e) {
          if (e instanceof InterruptedException) {
            Thread.currentThread().interrupt();
          }
          error = e;
          pending = null;
        } finally {
          if (watch != null && watch.stop() && !hasResult) {
            error = new AttemptTimeoutException(tool.name() + " attempt", bound, error);
          }
          // An attempt still under way keeps its permit until it ends (RunStep.endAttempt releases it).
          if (bulkhead != null && pending == null) {
            bulkhead.release();
          }
        }
        if (pending != null) {
          long t0 = timed ? start : clock.nanoTime();
          try {
            c = leaveInline(rt, invocation, task, tasks, view, policy, step, t0);
            c.holdsProbe = probe;
          } catch (RuntimeException e) {
            if (bulkhead != null) {
              bulkhead.release();
            }
            throw e;
          }
          c.attempts = 1;
          c.bulkhead = bulkhead;
          return asyncDriver.awaitAttempt(c, async, pending, t0);
        }
        if (!hasResult) {
          long now = clock.nanoTime();
          c = leaveInline(rt, invocation, task, tasks, view, policy, step, timed ? start : now);
          c.holdsProbe = probe;
          c.attempts = 1;
          c.error = error;
          c.lastLatencyNanos = timed ? now - start : 0; // an untimed call failed in microseconds at most
          c.lastAttemptEndNanos = now;
          next = Next.to(ControllerState.CLASSIFY);
        } else {
          // OBSERVE and VERIFY. A timed call reads the clock once more when it ends, or twice when a
          // verification above V0 ran (the attempt's latency excludes it); the permits' nanoseconds count
          // as the attempt's.
          boolean verifyTakesTime = level != null && level != VerifyLevel.V0;
          long attemptEnd = verifyTakesTime ? clock.nanoTime() : 0;
          ResultVerification.Result v = level == null ? null : verification.verify(tool, level, result);
          long end = timed ? clock.nanoTime() : rt.timing.lastReading();
          if (!verifyTakesTime) {
            attemptEnd = end;
          }
          long latency = timed ? attemptEnd - start : 0;
          double floor = task == null || Double.isNaN(task.qualityFloor()) ? policy.qualityFloor() : task.qualityFloor();
          boolean accepted = v == null || (v.accepted() && !v.verificationRequired() && v.verdict().quality() >= floor);
          // A clean call is a success of the breaker and a clean call of the meters: when the breaker counts it
          // without its lock, that one increment of a count they share serves both.
          boolean counted = false;
          if (breaker != null) {
            if (accepted) {
              counted = SharedSuccessCounts.onSuccessCountedIn(breaker, latency, attemptEnd, view.cleanReadsCounted);
            } else {
              breaker.onSuccess(latency, attemptEnd);
            }
          }
          if (accepted) {
            // ACCEPT. Outside a scope only the meters: nobody can ask for the outcome.
            if (task != null) {
              task.onCleanRead(rt.cleanReadOutcome);
            }
            if (timed) {
              if (counted) {
                SharedCleanCallCounts.countedCallTook(rt.meters, end - start);
              } else {
                rt.meters.cleanCall(end - start);
              }
              rt.timing.timed(start, end);
            } else if (!counted) {
              rt.meters.cleanCall();
            }
            if (Oversight.sampled(policy)) {
              spotCheck(rt, invocation, task, tasks, view, policy, step, start, result);
            }
            return async == null ? result : CompletableFuture.completedFuture(result);
          }
          rt.meters.attempt(null, true);
          if (!timed) {
            start = clock.nanoTime();
            end = start;
            attemptEnd = start;
          }
          c = leaveInline(rt, invocation, task, tasks, view, policy, step, start);
          c.result = result;
          c.hasResult = true;
          c.attempts = 1;
          c.lastLatencyNanos = latency;
          c.lastAttemptEndNanos = attemptEnd;
          c.verifyNanos = end - attemptEnd;
          c.state = ControllerState.VERIFY;
          next = machine.verify.verified(c, level, v);
        }
      }
    } catch (RuntimeException | LinkageError | AssertionError e) {
      // §4.1 for a read, exactly as EngineFailure.duringCall: fail open with the result if there is one.
      rt.meters.controllerFailure(true);
      if (async != null) {
        return hasResult ? CompletableFuture.completedFuture(result) : AsyncDriver.direct(async);
      }
      if (hasResult) {
        return result;
      }
      try {
        return invocation.proceed(null);
      } catch (Exception thrown) {
        throw Controller.Sneaky.<RuntimeException>rethrow(thrown);
      }
    }
    return handOff(c, async, next);
  }

  /**
   * Whether an asynchronous attempt has answered already: a plain {@link CompletableFuture} complete with a
   * result. A subclass may answer differently (the JDK's minimal stage refuses {@code join}): the driver waits
   * for it as for any stage.
   */
  private static boolean answered(CompletionStage<?> stage) {
    return stage.getClass() == CompletableFuture.class && ((CompletableFuture<?>) stage).isDone()
        && !((CompletableFuture<?>) stage).isCompletedExceptionally();
  }

  /** The call continues on its driver from {@code next}: the blocking one, or the asynchronous one for a future. */
  private <R> Object handOff(Call<R> c, AsyncToolInvocation<R> async, Next next) {
    return async == null ? driver.run(c, next) : asyncDriver.from(c, async, next);
  }

  /** §4.1 when the engine fails before the call starts: a read goes out as if HFR were absent. */
  private <R> Object beforeCall(ToolDescriptor tool, ToolInvocation<R> invocation, AsyncToolInvocation<R> async,
      RuntimeException e) {
    return async == null ? failure.beforeCall(tool, invocation, e) : failure.beforeAsyncCall(tool, async, e);
  }

  /** Builds the call (only now: one was sampled) that the spot check's evidence describes. */
  private <R> void spotCheck(ToolRuntime rt, ToolInvocation<R> invocation, TaskState task, ImplicitTasks tasks,
      ToolRuntime.TenantView view, CallPolicy policy, long step, long start, R result) {
    CallTask in = task != null ? task : tasks.next();
    Call<R> c = new Call<>(rt, invocation, in, view, policy, task != null ? step : in.nextStep(), start);
    c.result = result;
    c.hasResult = true;
    c.attempts = 1;
    oversight.spotCheck(c, rt.meters);
  }

  /**
   * The call of a read that left the inline path, as INIT would have set it up: in its task (admitted
   * already), or outside any scope, where its one-call task is made only if something asks for it.
   */
  private static <R> Call<R> leaveInline(ToolRuntime rt, ToolInvocation<R> invocation, TaskState task, ImplicitTasks tasks,
      ToolRuntime.TenantView view, CallPolicy policy, long step, long start) {
    if (task != null) {
      return new Call<>(rt, invocation, task, view, policy, step, start);
    }
    return new Call<>(rt, invocation, tasks, view, policy, start);
  }
}
