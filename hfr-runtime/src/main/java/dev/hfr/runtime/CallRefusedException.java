package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * HFR refused the call before or instead of running it: a policy or safety refusal (T8), a denied
 * approval, a task limit, a repeated action, a write another recoverer holds, or a write the ledger
 * already holds as committed. Retrying the same call will be refused the same way.
 */
public class CallRefusedException extends ToolCallException {

  private static final long serialVersionUID = 1L;

  public CallRefusedException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    super(outcome, cause, report, nextStep(outcome.reason()), stackTrace);
  }

  private static String nextStep(String reason) {
    switch (reason) {
      case "approval_denied":
        return "a person (or the approval gate) denied it: see the outcome's personAnswer for why; ask for approval (Hfr.builder().approvalGate(...)) or do not make the call";
      case "task_limit_reached":
        return "the task reached one of its limits (see taskReport().budgetUsage()): end the task or open a new one";
      case "repeated_action":
        return "the same tool was called too often in a row: replan instead of calling it again";
      case "key_in_use":
        return "another recoverer holds this write's ledger key right now: wait for it, do not run the write twice";
      case "ledger_unavailable":
        return "the ledger's database does not answer, so the write was not sent: call again once it is back"
            + " (harness.ledger.available is 1 again)";
      case "approval_expired":
        return "the approval expired before the call used it: a new approval request is in the inbox (hfr.inbox())";
      case "approval_used":
        return "this write's approval was used by an earlier send: a new approval request is in the inbox (hfr.inbox())";
      case "closed_by_person":
        return "a person closed this write in the inbox (leave it): nothing was sent, and calling again will not help";
      case "already_committed":
        return "the ledger already holds this write as committed: it is not executed again, and calling it again will not help";
      default:
        return "a policy or safety refusal is never retried or degraded around: change the request";
    }
  }
}
