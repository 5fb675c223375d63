package dev.hfr.runtime.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.timeout.AttemptTimeoutException;
import dev.hfr.runtime.timeout.AttemptTimer;

/**
 * RUN_STEP (Table 9): one physical attempt of the method (with the write's key for an R1 method) or of
 * the current ladder rung, if the rung's breaker and bulkhead let it through; a blocked attempt goes to
 * CHECK without calling anything.
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

  <R> Next run(Call<R> c) {
    CircuitBreaker breaker = c.breaker();
    if (breaker != null && !breaker.tryAcquire()) {
      c.blocked = Reason.CIRCUIT_OPEN;
      return Next.to(ControllerState.CHECK);
    }
    Bulkhead bulkhead = features.circuitBreaker() ? c.rt.bulkhead(c.rung) : null;
    if (bulkhead != null && !bulkhead.tryAcquire(c.criticality == Criticality.Level.HIGH)) {
      if (breaker != null) {
        breaker.releasePermit();
      }
      c.blocked = Reason.BULKHEAD_FULL;
      return Next.to(ControllerState.CHECK);
    }
    c.blocked = null;
    c.attempts++;
    long t0 = clock.nanoTime();
    // The attempt runs on this thread; the shared timer interrupts it when its bound is up.
    long bound = AttemptTimeout.bounded(c.policy, c.task) ? timeouts.attemptBoundNanos(c.policy, c.task, t0) : 0L;
    AttemptTimer.Watch watch = bound > 0 ? timeouts.start(t0 + bound) : null;
    try {
      R r = c.rung < 0 ? c.invocation.proceed(c.tool.risk() == Risk.R1 ? c.key : null) : c.invocation.degrade(c.rung);
      c.result = r;
      c.hasResult = true;
      c.error = null;
    } catch (Exception e) {
      if (e instanceof InterruptedException) {
        Thread.currentThread().interrupt();
      }
      c.result = null;
      c.hasResult = false;
      c.error = e;
    } finally {
      if (watch != null && watch.stop() && !c.hasResult) {
        // Timed out: a T3 whatever the tool made of its interrupt (for a write: an unknown outcome).
        c.error = new AttemptTimeoutException(c.tool.name() + " attempt", bound, c.error);
      }
      c.lastAttemptEndNanos = clock.nanoTime();
      c.lastLatencyNanos = c.lastAttemptEndNanos - t0;
      if (bulkhead != null) {
        bulkhead.release();
      }
    }
    return Next.to(ControllerState.OBSERVE);
  }
}
