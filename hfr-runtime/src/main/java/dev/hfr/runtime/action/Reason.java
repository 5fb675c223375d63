package dev.hfr.runtime.action;

import java.util.Locale;

/**
 * Why the engine decided what it did, as a closed set: the {@code reason} of a {@link
 * dev.hfr.runtime.ToolOutcome}, of a decision event and the {@code reason} tag of meters. Closed so tag
 * values stay bounded; the details (verifier reasons, evidence) go into decision events and evidence
 * bundles, never into tags.
 */
public enum Reason {
  /** The result was accepted. */
  OK,
  /** The fault class may be retried and every check passed. */
  RETRYABLE,
  /** The same fault repeated without new evidence. */
  SAME_FAULT_REPEATED,
  /** A verifier rejected the result again for the same reason, without new evidence. */
  SAME_VERIFIER_REASON,
  /** The per-step attempt budget is spent. */
  STEP_BUDGET_EXHAUSTED,
  /** The per-task retry budget is spent. */
  TASK_BUDGET_EXHAUSTED,
  /** The tenant's retry token bucket is empty for this window. */
  TENANT_BUDGET_EXHAUSTED,
  /** A task limit (turns, tool calls, wall time, cost, write actions) is reached. */
  TASK_LIMIT_REACHED,
  /** The same tool was called too often in one task: a loop, so the planner must change course. */
  REPEATED_ACTION,
  /** The next attempt could not finish (with its verification) before the task's deadline. */
  DEADLINE,
  /** The target's circuit breaker is open. */
  CIRCUIT_OPEN,
  /** The target's bulkhead is full. */
  BULKHEAD_FULL,
  /** The fault class is never retried on this path (T4, T5 on the same target; T7). */
  NOT_RETRYABLE,
  /** A permanent input or permission error (T7). */
  PERMANENT_ERROR,
  /** A safety or policy refusal (T8): never retried, never degraded around. */
  POLICY_REFUSAL,
  /** The approval gate denied the call (a T8). */
  APPROVAL_DENIED,
  /** An irreversible (R3) write failed: it is never retried automatically. */
  IRREVERSIBLE,
  /** A write timed out (T3): it may or may not have been applied. */
  TIMEOUT_UNKNOWN_STATE,
  /**
   * A write failed in a way that does not prove it was not applied (a 5xx, a dropped connection, an
   * unclassified error): nothing timed out, but its outcome is unknown all the same.
   */
  WRITE_OUTCOME_UNKNOWN,
  /** Reconciliation found the write committed. */
  RECONCILED_COMMITTED,
  /** Reconciliation found the write absent: safe to retry under the same key. */
  RECONCILED_ABSENT,
  /** Reconciliation could not tell: the write stays UNKNOWN. */
  RECONCILE_UNKNOWN,
  /** Another recoverer holds the lease on this write's ledger key right now. */
  KEY_IN_USE,
  /**
   * An idempotent (R1) write of unknown outcome without a reconcile method was resent under its own
   * idempotency key: the provider deduplicates on the key, so the resend is the reconciliation (Table 7).
   */
  RESEND_SAME_KEY,
  /** A committed write was undone by its compensate method; its record is COMPENSATED. */
  COMPENSATED,
  /** The compensate method was refused in a way that proves nothing was undone: it may be asked again. */
  COMPENSATION_FAILED,
  /** The compensation's own outcome is unknown: it is never re-run automatically. */
  COMPENSATION_UNKNOWN,
  /** Compensation was refused: no compensate method, no such committed write, or not in a committed state. */
  NOT_COMPENSABLE,
  /**
   * A write whose result the verifier rejected was reconciled absent (it did not take effect): retried with
   * the rejection as new evidence — an R1 write under a new key, since its provider answers the old key with
   * the rejected answer.
   */
  REJECTED_WRITE_ABSENT,
  /**
   * A write whose result the verifier rejected had taken effect and was compensated (its record is
   * COMPENSATED): retried with the rejection as new evidence under a new key.
   */
  REJECTED_WRITE_COMPENSATED,
  /**
   * A write whose result the verifier rejected had taken effect (found by its reconcile, or answered under
   * its key) and its tool declares no compensate method: escalated with the evidence, never resent.
   */
  REJECTED_WRITE_COMMITTED,
  /**
   * A write of a task reopened after a crash, of a tool whose earlier run left a write unfinished under
   * other arguments (or another occurrence): it may repeat that write, so it is reconciled before its first
   * send (an R1 write is sent under the unfinished write's key instead, which the provider deduplicates).
   */
  RESUMED_WRITE,
  /** The ledger already holds this write as committed: it is not executed again. */
  ALREADY_COMMITTED,
  /**
   * A re-call of a write the task already committed (the model called the tool again with the same
   * arguments): answered with the result the write returned, without sending anything.
   */
  REPLAYED_FROM_LEDGER,
  /**
   * A re-call of a write whose outcome is unknown and cannot be found out (no reconcile method, not
   * idempotent): nothing is sent; the write is with a person, and calling again will not help.
   */
  OUTCOME_UNKNOWN_RECALL,
  /**
   * A call of a {@code requiresApproval} tool waits for a person: nothing ran, an approval request is in the inbox,
   * and calling again with the same arguments once it is approved runs it (once).
   */
  AWAITING_APPROVAL,
  /** A person approved the call in the inbox: it ran under that approval, which is now used. */
  APPROVED_BY_PERSON,
  /** The approval (or its request) expired before a call used it: nothing ran; a new request is in the inbox. */
  APPROVAL_EXPIRED,
  /** The approval for this write was already used by an earlier send: nothing ran; a new request is in the inbox. */
  APPROVAL_USED,
  /** A person closed the escalated write as it is ("leave it"): nothing is sent, calling again will not help. */
  CLOSED_BY_PERSON,
  /** The context overflowed and was compressed. */
  CONTEXT_COMPRESSED,
  /** The context overflowed and no compressor could shrink it. */
  CONTEXT_NOT_COMPRESSIBLE,
  /** The target is overloaded (T4). */
  OVERLOADED,
  /** The tool is unavailable or its contract does not match (T5). */
  TOOL_UNAVAILABLE,
  /** A verifier rejected the result. */
  VERIFICATION_FAILED,
  /** The result passed verification below the task's quality floor. */
  QUALITY_BELOW_FLOOR,
  /** A failure no rule could classify: handled conservatively by risk. */
  UNCLASSIFIED,
  /** Recovery stopped with no safe alternative left. */
  NO_SAFE_ALTERNATIVE,
  /**
   * The write was refused before its first attempt because the ledger's database does not answer: it was
   * not sent (a write is never sent without its ledger record). Calling again once the database is back works.
   */
  LEDGER_UNAVAILABLE,
  /** The engine itself failed; reads failed open, writes failed closed. */
  CONTROLLER_FAILURE,
  /** The escalation handler itself failed. */
  ESCALATION_FAILED,
  /** An accepted result sampled for a human check ({@code verification.human_spot_check_rate}); the call succeeded. */
  HUMAN_SPOT_CHECK,
  /** The calling thread was interrupted while waiting out a backoff. */
  INTERRUPTED,
  /** The caller cancelled the call before it ended (a subscriber that stopped reading a streamed model answer). */
  CANCELLED;

  private final String code = name().toLowerCase(Locale.ROOT);

  /** The lower_snake code written to outcomes, events (as JSON) and tags. */
  @com.fasterxml.jackson.annotation.JsonValue
  public String code() {
    return code;
  }
}
