package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.ToolMeters;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.verify.ResultVerification;
import java.util.concurrent.CompletableFuture;

/**
 * Shadow mode ({@link dev.hfr.runtime.HfrMode#SHADOW}): the tool runs exactly as without HFR, and the
 * engine only records what it would have decided after the first attempt.
 */
final class ShadowRun {

  private final HfrFeatures features;
  private final Clock clock;
  private final ToolRuntimes tools;
  private final FailureHandling failures;
  private final ResultVerification verification;
  private final DecisionRecorder decisions;

  ShadowRun(EngineParts parts) {
    this.features = parts.features;
    this.clock = parts.clock;
    this.tools = parts.tools;
    this.failures = parts.failures;
    this.verification = parts.verification;
    this.decisions = parts.decisions;
  }

  /**
   * Shadow mode: calls the tool once exactly as without HFR, classifies and decides what HFR would do,
   * records it (decision event with mode {@code shadow}, meters), and returns the result or rethrows
   * the exception unchanged. Budgets, breakers and the ledger are left untouched.
   */
  <R> R run(ToolDescriptor tool, ToolInvocation<R> invocation, CallTask task) {
    R result = null;
    Exception error = null;
    long t0 = clock.nanoTime();
    try {
      result = invocation.proceed(null);
    } catch (Exception e) {
      error = e;
    }
    decideQuietly(tool, invocation, task, result, error, clock.nanoTime() - t0);
    if (error != null) {
      throw Controller.Sneaky.<RuntimeException>rethrow(error);
    }
    return result;
  }

  /** The same for an asynchronous tool: the caller gets the tool's own outcome once HFR has looked at it. */
  <R> CompletableFuture<R> runAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation, CallTask task) {
    long t0 = clock.nanoTime();
    return AsyncDriver.direct(invocation).whenComplete((result, failure) -> {
      Throwable cause = failure == null ? null : RunStep.unwrap(failure);
      decideQuietly(tool, invocation, task, result, cause instanceof Exception e ? e : null, clock.nanoTime() - t0);
    });
  }

  private <R> void decideQuietly(ToolDescriptor tool, ToolInvocation<R> invocation, CallTask task, R result,
      Exception error, long latency) {
    try {
      decide(tools.of(tool), invocation, task, result, error, latency);
    } catch (RuntimeException | LinkageError | AssertionError ignored) {
      // Shadow mode must never change what the caller sees.
      tools.meters().forTool(tool).controllerFailure(true);
    }
  }

  private <R> void decide(ToolRuntime rt, ToolInvocation<R> invocation, CallTask task, R result, Exception error,
      long latency) {
    Criticality.Level criticality = Controller.effectiveCriticality(task.criticality(), rt.tool.criticality());
    ToolRuntime.TenantView view = rt.tenant(task.tenant());
    CallPolicy policy = rt.policy(task.tenant(), view, criticality);
    Call<R> c = new Call<>(rt, invocation, task, view, policy, task.nextStep(), t0Of(latency));
    c.attempts = 1;
    c.lastLatencyNanos = latency;
    if (error == null) {
      rt.meters.attempt(null, true);
      if (!features.verification()) {
        return;
      }
      ResultVerification.Result v = verification.verify(rt.tool, policy.verifyLevel(), result);
      if (v.accepted()) {
        return;
      }
      c.fault = Fault.V1;
      c.classification = Verify.rejectedAt(v.rejectedAt());
      c.lastRejection = v.verdict();
      rt.meters.verificationFailure(v.rejectedAt(), ToolMeters.VerificationFailure.of(v.verdict().reason()));
    } else {
      c.classification = failures.classify(error, latency);
      c.fault = c.classification.confidence() < Controller.MIN_CONFIDENCE ? Fault.UNCLASSIFIED : c.classification.fault();
      c.error = error;
      rt.meters.attempt(c.fault, false);
    }
    Action action = ActionTable.defaultAction(c.fault, c.risk(), criticality);
    Reason reason = action == Action.RETRY ? Reason.RETRYABLE : Check.reasonOf(c.fault);
    if (action == Action.RETRY && c.fault != Fault.V1 && c.fault != Fault.UNCLASSIFIED
        && !policy.retry().retryOn().contains(c.fault)) {
      action = Action.FAIL;
      reason = Reason.NOT_RETRYABLE;
    }
    if (action == Action.RETRY) {
      c.delayNanos = failures.backoffNanos(1, policy.retry(), c.classification.retryAfterMillis());
    }
    decisions.record(c, action, reason, DecisionRecorder.SHADOW);
  }

  private long t0Of(long latency) {
    return clock.nanoTime() - latency;
  }
}
