package dev.hfr.runtime;

import java.util.function.Supplier;

/**
 * A write may or may not have been applied, and HFR could not find out (no reconcile method, or it could
 * not tell): the ledger record stays UNKNOWN and the call was handed to the escalation handler, so this is
 * a {@link CallEscalatedException} ({@code outcome().status()} is {@code ESCALATED}; {@code FAILED} with
 * reason {@code escalation_failed} when the handler itself threw). Never resend the call blindly — that is
 * how duplicates are made. Inside the same task a re-call with the same arguments is answered from the
 * ledger (reconciled first where the tool can be asked; reason {@code outcome_unknown_recall} where it
 * cannot), never sent again; after a restart {@link Hfr#resumePending()} does the same for writes whose
 * process vanished.
 *
 * <p>One case asks nobody: an idempotent (R1) write whose answer was lost and whose resend under its key did not
 * fit now (its deadline, an open breaker, an empty retry budget: status {@code FAILED}, that reason, {@link
 * #resendableUnderKey()} true). Calling it again in the same task resends it under the same key, which is safe.
 */
public class OutcomeUnknownException extends CallEscalatedException {

  private static final long serialVersionUID = 1L;

  /** Reasons an idempotent write's resend was put off (status FAILED, nobody asked): a later call resends it. */
  private static final java.util.Set<String> RESEND_LATER =
      java.util.Set.of("deadline", "tenant_budget_exhausted", "circuit_open", "bulkhead_full");

  public OutcomeUnknownException(ToolOutcome outcome, Throwable cause, Supplier<TaskReport> report, boolean stackTrace) {
    super(outcome, cause, report, nextStep(outcome), stackTrace);
  }

  private static String nextStep(ToolOutcome outcome) {
    String target = outcome.artifactRefs().isEmpty() ? "" : " for " + outcome.artifactRefs().get(0);
    if (outcome.status() == ToolOutcome.Status.FAILED && RESEND_LATER.contains(outcome.reason())) {
      return "its answer was lost and its resend under the same key did not fit now (" + outcome.reason()
          + "): call it again in the same task (after admitAfter()); HFR resends it under its key" + target
          + ", which the provider answers with the committed result";
    }
    if ("outcome_unknown_recall".equals(outcome.reason())) {
      return "this write was made before in the task and may have been applied; a person was asked to check"
          + target + ". Calling it again will not help: it is answered from the ledger, never sent again";
    }
    return "the write may have been applied: do not resend it; check the target" + target
        + ", or re-run the task with the same task id and arguments so HFR reconciles before anything else";
  }
}
