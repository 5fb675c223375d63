package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.LedgerUnavailableException;
import dev.hfr.runtime.telemetry.HfrMeters;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * §4.1: what happens when the engine itself fails (a bug, a ledger outage, a failing hook). A read fails
 * open — its result if the tool already answered, otherwise one direct call as if HFR were absent. A write
 * fails closed: no further attempt, the call is escalated, and its ledger record (if any) stays where
 * crash resume will reconcile it.
 */
final class EngineFailure {

  private final HfrMeters meters;
  private final DecisionRecorder decisions;
  private final Oversight oversight;
  private final WriteLedger writes;

  EngineFailure(HfrMeters meters, DecisionRecorder decisions, Oversight oversight, WriteLedger writes) {
    this.writes = writes;
    this.meters = meters;
    this.decisions = decisions;
    this.oversight = oversight;
  }

  /** The state machine failed while running {@code c}. */
  <R> R duringCall(Call<R> c, Throwable failure) {
    if (failsOpen(c, failure)) {
      if (c.hasResult) {
        return c.result;
      }
      return direct(c.invocation);
    }
    throw failClosed(c, failure);
  }

  /**
   * The first part of §4.1 for both drivers: the lease is given up and the failure counted; a read then
   * fails open ({@code true}: the caller gets its result or one direct call), a write fails closed.
   */
  boolean failsOpen(Call<?> c, Throwable failure) {
    boolean failOpen = c.risk() == Risk.R0;
    writes.releaseLease(c); // the record stays where it is; a lease left behind would only block the next recoverer
    if (failOpen || !refusedForLedger(c, failure)) {
      // A write refused because the ledger's database is away is a refusal, not a failure of the controller.
      c.rt.meters.controllerFailure(failOpen);
    }
    if (failOpen) {
      decisions.callEnded(c, false);
    }
    return failOpen;
  }

  /** A write that fails closed: escalated, counted, and the structured failure the caller gets. */
  ToolCallException failClosed(Call<?> c, Throwable failure) {
    if (refusedForLedger(c, failure)) {
      return ledgerUnavailable(c, failure);
    }
    c.reason = Reason.CONTROLLER_FAILURE;
    c.action = Action.ESCALATE;
    ToolOutcome.Status status = ToolOutcome.Status.FAILED;
    try {
      decisions.record(c, Action.ESCALATE, Reason.CONTROLLER_FAILURE, DecisionRecorder.ENFORCE);
      c.rt.meters.escalation(Reason.CONTROLLER_FAILURE);
      oversight.escalate(c);
      status = ToolOutcome.Status.ESCALATED;
    } catch (Exception | LinkageError | AssertionError ignored) {
      // The escalation path is part of the failed controller; the exception below still reaches the caller.
    }
    ToolOutcome outcome = new ToolOutcome(c.tool().name(), status, c.fault, false, true, List.of(), true, c.rung >= 0,
        c.rungLevel(), c.attempts, Reason.CONTROLLER_FAILURE.code());
    try {
      c.task().onCallEnd(outcome, true);
    } catch (RuntimeException ignored) {
      // Same: counting is best effort once the controller is known to be broken.
    }
    // A write failed closed: whether an attempt reached the target is not known.
    ToolCallException e = oversight.failure(outcome, c.error, c.attempts > 0, c.task()::report);
    e.addSuppressed(failure);
    return e;
  }

  /** Whether {@code failure} is the ledger's database not answering before the call's first attempt. */
  private static boolean refusedForLedger(Call<?> c, Throwable failure) {
    return failure instanceof LedgerUnavailableException && c.attempts == 0;
  }

  /**
   * The ledger's database did not answer before the write's first attempt: nothing was sent, so the write is
   * refused ({@code ledger_unavailable}), not escalated; calling again once the database is back works.
   */
  private ToolCallException ledgerUnavailable(Call<?> c, Throwable failure) {
    c.reason = Reason.LEDGER_UNAVAILABLE;
    c.action = Action.FAIL;
    ToolOutcome outcome = new ToolOutcome(c.tool().name(), ToolOutcome.Status.FAILED, null, false, false, List.of(), false,
        false, DegradeLevel.L0, 0, Reason.LEDGER_UNAVAILABLE.code());
    try {
      decisions.record(c, Action.FAIL, Reason.LEDGER_UNAVAILABLE, DecisionRecorder.ENFORCE);
      c.task().onCallEnd(outcome, false);
    } catch (RuntimeException ignored) {
      // Recording is best effort here; the refusal below still reaches the caller.
    }
    return oversight.failure(outcome, failure, false, c.task()::report);
  }

  /** The engine could not even set up for this tool: reads go straight through, writes are refused. */
  <R> R beforeCall(ToolDescriptor tool, ToolInvocation<R> invocation, RuntimeException failure) {
    countBeforeCall(tool);
    if (tool.risk() == Risk.R0) {
      return direct(invocation);
    }
    throw refusedBeforeCall(tool, failure);
  }

  /** The same for an asynchronous call. */
  <R> CompletableFuture<R> beforeAsyncCall(ToolDescriptor tool, AsyncToolInvocation<R> invocation, RuntimeException failure) {
    countBeforeCall(tool);
    if (tool.risk() == Risk.R0) {
      return AsyncDriver.direct(invocation);
    }
    return CompletableFuture.failedFuture(refusedBeforeCall(tool, failure));
  }

  private void countBeforeCall(ToolDescriptor tool) {
    try {
      meters.forTool(tool).controllerFailure(tool.risk() == Risk.R0);
    } catch (RuntimeException ignored) {
      // Counting is best effort here: the engine is already known to be broken.
    }
  }

  private ToolCallException refusedBeforeCall(ToolDescriptor tool, RuntimeException failure) {
    ToolOutcome outcome = new ToolOutcome(tool.name(), ToolOutcome.Status.FAILED, null, false, false, List.of(), false,
        false, DegradeLevel.L0, 0, Reason.CONTROLLER_FAILURE.code());
    return oversight.failure(outcome, failure, false, null);
  }

  /** One call as if HFR were absent; what the tool throws reaches the caller unchanged. */
  static <R> R direct(ToolInvocation<R> invocation) {
    try {
      return invocation.proceed(null);
    } catch (Exception e) {
      throw Controller.Sneaky.<RuntimeException>rethrow(e);
    }
  }
}
