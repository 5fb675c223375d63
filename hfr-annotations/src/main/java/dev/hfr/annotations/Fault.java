package dev.hfr.annotations;

/** The F2D-9 failure classes (the paper's Table 2), plus {@link #UNCLASSIFIED}. */
public enum Fault {
  /** Transient transport or server error (500/502/503/504, connection reset): retried with full jitter. */
  T1,
  /** Rate limit or quota (429, Retry-After): retried no sooner than Retry-After. */
  T2,
  /** Timeout, outcome unknown: reads are retried, writes are reconciled first. */
  T3,
  /** Model overloaded (529, overloaded_error): degrade to another model rather than hammer this one. */
  T4,
  /** Tool unavailable or contract mismatch (unknown tool, schema mismatch): degrade to an equivalent tool. */
  T5,
  /** Context overflow (context_length_exceeded): compress, then retry; never resend as is. */
  T6,
  /** Permanent input or permission error (400, 401, 403): fail or escalate; never retried. */
  T7,
  /** Safety or policy refusal: escalate; never retried and never degraded around. */
  T8,
  /** Semantic verification failure: retried only with new evidence, otherwise replanned or degraded. */
  V1,
  /** No rule matched with confidence: handled conservatively by risk (read: probe once; write: reconcile). */
  UNCLASSIFIED
}
