package dev.hfr.bench.workload;

/** What one logical step of a simulated task calls (Table B1: 35 % / 45 % / 20 %). */
public enum StepKind {
  /** A model call: primary, backup and cheap model tiers. */
  MODEL,
  /** A read-only tool: primary, alternative and cache tiers. */
  READ_TOOL,
  /** A write tool honouring idempotency keys; it has no degradation ladder. */
  WRITE_TOOL
}
