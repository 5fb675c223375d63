package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * HFR handed the call to the escalation handler (a human or an upstream system) with its evidence bundle;
 * the result, if any, comes from there. Do not retry the call meanwhile.
 */
public class CallEscalatedException extends ToolCallException {

  private static final long serialVersionUID = 1L;

  public CallEscalatedException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    super(outcome, cause, report, "escalated with its evidence to the escalation handler"
        + " (Hfr.builder().escalationHandler(...)): wait for its answer", stackTrace);
  }
}
