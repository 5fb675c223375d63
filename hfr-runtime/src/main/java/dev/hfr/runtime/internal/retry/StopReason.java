package dev.hfr.runtime.internal.retry;

import java.util.Locale;

/**
 * Why {@link RetryGate} refused a retry: a bounded, machine-readable reason for decision events, meter
 * tags and the engine's choice of what to do instead. Listed in the order the gate checks them.
 */
public enum StopReason {
  /** T8: a safety or policy refusal; escalate, never retry and never degrade around it. */
  POLICY_REFUSAL,
  /** T7: a permanent input or permission error; fail or escalate. */
  PERMANENT_FAULT,
  /** R3: an irreversible write is never retried automatically. */
  IRREVERSIBLE,
  /** T3 (or an unclassified failure) on a write: the ledger must be reconciled first. */
  RECONCILE_FIRST,
  /** An unclassified failure of a read has had its one probing retry. */
  UNCLASSIFIED_PROBED,
  /** T4 or T5: the same model or tool will not do better; switch target (degrade). */
  NEEDS_OTHER_TARGET,
  /** T6: the context must be compressed before the call is sent again. */
  COMPRESS_FIRST,
  /** V1 on a write: the effect is committed, resending would repeat it; replan or compensate. */
  SIDE_EFFECT_COMMITTED,
  /** The fault class is not in the tool's {@code retryOn}. */
  NOT_RETRYABLE_CLASS,
  /** The same fault class K times in a row without new evidence: retrying changes nothing. */
  SAME_FAULT_REPEATED,
  /** The verifier rejected twice for the same reason: change strategy instead of regenerating. */
  SAME_VERIFIER_REASON,
  /** The target's breaker is not closed: no retries to an unhealthy target. */
  BREAKER_OPEN,
  /** {@code t + d + t_step + t_verify} would pass the deadline. */
  DEADLINE,
  /** The step has made {@code max_attempts_per_step} attempts. */
  STEP_ATTEMPTS_EXHAUSTED,
  /** The task's retry budget B_t is spent. */
  TASK_BUDGET_EXHAUSTED,
  /** The tenant's retries for the current window are spent. */
  TENANT_BUDGET_EXHAUSTED;

  /** The lower-case reason, e.g. {@code breaker_open}: stable, for events and tags. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
