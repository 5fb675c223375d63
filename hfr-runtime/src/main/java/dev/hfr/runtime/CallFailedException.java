package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * HFR stopped the call with a structured failure: nothing is in an unknown state. {@code
 * outcome().retryable()} says whether a later, separate call could succeed (after the cause is fixed, a
 * budget refills or a breaker closes).
 */
public class CallFailedException extends ToolCallException {

  private static final long serialVersionUID = 1L;

  public CallFailedException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    super(outcome, cause, report, outcome.retryable()
        ? "nothing was left half-done: a later call may succeed, or replan around the tool"
        : "nothing was left half-done; the same call will fail the same way: fix the input or replan", stackTrace);
  }
}
