package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * HFR handed the call to the escalation handler (a human or an upstream system) with its evidence bundle;
 * the result, if any, comes from there. Do not retry the call meanwhile: inside the same task a repeated
 * write is answered from the ledger, never sent again.
 *
 * <p>Every escalation of a tool call ends in this exception or a subclass: a write whose outcome is unknown
 * ends in {@link OutcomeUnknownException}, which is one. The exceptions are refusals: a policy refusal (T8)
 * or a denied approval is escalated too, and ends in {@link CallRefusedException} with status {@code
 * ESCALATED}.
 */
public class CallEscalatedException extends ToolCallException {

  private static final long serialVersionUID = 1L;

  public CallEscalatedException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    this(outcome, cause, report, "escalated with its evidence to the escalation handler"
        + " (Hfr.builder().escalationHandler(...)): wait for its answer", stackTrace);
  }

  /** For subclasses that say more about what to do next. */
  protected CallEscalatedException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, String nextStep,
      boolean stackTrace) {
    super(outcome, cause, report, nextStep, stackTrace);
  }
}
