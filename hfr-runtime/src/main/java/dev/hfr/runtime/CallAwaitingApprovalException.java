package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * The call needs a person's approval and has none yet: nothing ran, and no thread waits. An approval request is in the
 * inbox ({@code hfr.inbox()}, artifact reference {@code inbox:<id>}); once a person approves it, calling again with
 * the same arguments in the same task runs the call, once.
 */
public class CallAwaitingApprovalException extends ToolCallException {

  private static final long serialVersionUID = 1L;

  public CallAwaitingApprovalException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    super(outcome, cause, report, "waiting for a person: call again with the same arguments once the inbox item "
        + "is approved", stackTrace);
  }
}
