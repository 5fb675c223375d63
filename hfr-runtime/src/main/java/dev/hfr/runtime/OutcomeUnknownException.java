package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * A write may or may not have been applied, and HFR could not find out (no reconcile method, or it could
 * not tell): the ledger record stays UNKNOWN. Never resend the call blindly — that is how duplicates are
 * made. The same task re-run with the same arguments reconciles first; after a restart {@link
 * Hfr#resumePending()} does the same for writes whose process vanished.
 */
public class OutcomeUnknownException extends ToolCallException {

  private static final long serialVersionUID = 1L;

  public OutcomeUnknownException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    super(outcome, cause, report, "the write may have been applied: do not resend it; check the target"
        + (outcome.artifactRefs().isEmpty() ? "" : " for " + outcome.artifactRefs().get(0))
        + ", or re-run the task with the same task id and arguments so HFR reconciles before anything else", stackTrace);
  }
}
