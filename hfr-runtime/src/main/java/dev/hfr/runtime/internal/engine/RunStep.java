package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitState;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.timeout.AttemptTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * RUN_STEP (Table 9): one physical attempt of the method (with the write's key for an R1 method) or of
 * the current ladder rung, if the rung's breaker and bulkhead let it through; a blocked attempt goes to
 * CHECK without calling anything. The attempt of a tool known to ignore interruption runs where it can be
 * abandoned ({@link AttemptTimeout#abandonable}). The attempt itself is the only part the drivers do differently: {@link
 * #run} calls the method and waits (the shared timer interrupts it when its bound is up), {@link #runAsync}
 * starts it and continues when its stage completes (a bound fails the stage instead). Both go through
 * {@link #enter} and {@link #ended}.
 */
final class RunStep {

  private final HfrFeatures features;
  private final Clock clock;
  private final AttemptTimeout timeouts;

  RunStep(HfrFeatures features, Clock clock, AttemptTimeout timeouts) {
    this.features = features;
    this.clock = clock;
    this.timeouts = timeouts;
  }

  /** The blocking attempt. */
  <R> Next run(Call<R> c) {
    Next blocked = enter(c);
    if (blocked != null) {
      return blocked;
    }
    long t0 = clock.nanoTime();
    // The attempt runs on this thread; the shared timer interrupts it when its bound is up.
    long bound = boundNanos(c, t0);
    if (bound > 0 && c.rt.ignoresInterrupts) {
      return runAbandonable(c, bound, t0);
    }
    AttemptTimer.Watch watch = bound > 0 ? timeouts.start(t0 + bound, c.rt) : null;
    R r = null;
    Exception error = null;
    try {
      r = c.rung < 0 ? c.invocation.proceed(c.tool().risk() == Risk.R1 ? c.wireKey() : null) : c.invocation.degrade(c.rung);
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      error = e;
    } catch (Error e) {
      if (watch != null) {
        watch.stop();
      }
      endAttempt(c, t0);
      throw e;
    }
    if (watch != null && watch.stop() && error != null) {
      // Timed out: a T3 whatever the tool made of its interrupt (for a write: an unknown outcome).
      error = new AttemptTimeoutException(c.tool().name() + " attempt", bound, error);
    }
    return ended(c, r, error, t0);
  }

  /**
   * The attempt of a tool that ignored an interrupt before: on a thread of its own, abandoned at its bound (an
   * {@link AttemptTimeoutException}, so a T3), never waited for past it.
   */
  private <R> Next runAbandonable(Call<R> c, long bound, long t0) {
    R r = null;
    Exception error = null;
    String key = c.tool().risk() == Risk.R1 ? c.key() : null;
    int rung = c.rung;
    try {
      r = timeouts.abandonable(() -> rung < 0 ? c.invocation.proceed(key) : c.invocation.degrade(rung), bound,
          c.tool().name() + " attempt");
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      error = e;
    } catch (Error e) {
      endAttempt(c, t0);
      throw e;
    }
    return ended(c, r, error, t0);
  }

  /** The asynchronous attempt: the stage completes with the next state when the attempt's stage does. */
  <R> CompletionStage<Next> runAsync(Call<R> c, AsyncToolInvocation<R> invocation) {
    Next blocked = enter(c);
    if (blocked != null) {
      return CompletableFuture.completedFuture(blocked);
    }
    long t0 = clock.nanoTime();
    long bound = boundNanos(c, t0);
    CompletionStage<R> attempt;
    try {
      attempt = c.rung < 0 ? invocation.start(c.tool().risk() == Risk.R1 ? c.wireKey() : null) : invocation.startRung(c.rung);
      if (attempt == null) {
        throw new NullPointerException(c.tool().name() + " returned null instead of a CompletionStage");
      }
    } catch (Exception e) {
      return CompletableFuture.completedFuture(ended(c, null, e, t0));
    } catch (Error e) {
      endAttempt(c, t0);
      throw e;
    }
    return awaitAsync(c, attempt, t0, bound);
  }

  /**
   * The asynchronous attempt started at {@code t0}, under way as {@code attempt} (its permits taken and counted):
   * the stage completes with the next state when the attempt's stage does, or fails it at {@code bound} (0: none).
   */
  <R> CompletionStage<Next> awaitAsync(Call<R> c, CompletionStage<R> attempt, long t0, long bound) {
    if (bound > 0) {
      // A copy times out, not the tool's own future; no thread waits for it (the JDK's delayer fires it).
      attempt = attempt.toCompletableFuture().copy().orTimeout(bound, TimeUnit.NANOSECONDS);
    }
    return attempt.handle((r, failure) -> {
      if (failure == null) {
        return ended(c, r, null, t0);
      }
      Throwable cause = unwrap(failure);
      if (cause instanceof TimeoutException && bound > 0) {
        return ended(c, null, new AttemptTimeoutException(c.tool().name() + " attempt", bound, cause), t0);
      }
      if (cause instanceof Exception e) {
        return ended(c, null, e, t0);
      }
      endAttempt(c, t0);
      throw new CompletionException(cause);
    });
  }

  /** The attempt's time bound from {@code t0} (its timeout, or what is left of the task's deadline), or 0. */
  long boundNanos(Call<?> c, long t0) {
    return AttemptTimeout.bounded(c.policy, c.deadline()) ? timeouts.attemptBoundNanos(c.policy, c.deadline(), t0) : 0L;
  }

  /** The breaker's and bulkhead's permits: the next state if they refuse the attempt, else {@code null}. */
  private Next enter(Call<?> c) {
    CircuitBreaker breaker = c.holdsProbe ? null : c.breaker();
    if (breaker != null) {
      if (!breaker.tryAcquire()) {
        c.blocked = Reason.CIRCUIT_OPEN;
        c.admitAfter(Math.max(0L, breaker.openUntilNanos() - clock.nanoTime()));
        return Next.to(ControllerState.CHECK);
      }
      // A half-open permit is the call's: its retries are judged with it (a breaker judges calls).
      c.holdsProbe = breaker.state() == CircuitState.HALF_OPEN;
    }
    Bulkhead bulkhead = features.circuitBreaker() ? c.rt.bulkhead(c.rung) : null;
    if (bulkhead != null && !bulkhead.tryAcquire(c.criticality() == Criticality.Level.HIGH)) {
      if (breaker != null) {
        breaker.releasePermit();
        c.holdsProbe = false;
      }
      c.blocked = Reason.BULKHEAD_FULL;
      return Next.to(ControllerState.CHECK);
    }
    c.bulkhead = bulkhead;
    c.blocked = null;
    c.attempts++;
    return null;
  }

  /** Records what the attempt started at {@code t0} gave — a result, or {@code error} — and moves to OBSERVE. */
  private <R> Next ended(Call<R> c, R result, Exception error, long t0) {
    if (error == null) {
      c.result = result;
      c.hasResult = true;
      c.error = null;
    } else {
      c.result = null;
      c.hasResult = false;
      c.error = error;
    }
    endAttempt(c, t0);
    return Next.to(ControllerState.OBSERVE);
  }

  /** The attempt's time and bulkhead permit, whatever ended it. */
  private void endAttempt(Call<?> c, long t0) {
    c.lastAttemptEndNanos = clock.nanoTime();
    c.lastLatencyNanos = c.lastAttemptEndNanos - t0;
    Bulkhead bulkhead = c.bulkhead;
    if (bulkhead != null) {
      c.bulkhead = null;
      bulkhead.release();
    }
  }

  /** The failure a stage completed with, without the wrappers stages add. */
  static Throwable unwrap(Throwable failure) {
    Throwable t = failure;
    while ((t instanceof CompletionException || t instanceof ExecutionException) && t.getCause() != null) {
      t = t.getCause();
    }
    return t;
  }
}
