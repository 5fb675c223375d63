package dev.hfr.runtime;

import java.util.Objects;

/**
 * A committed write that was undone: its ledger record is now COMPENSATED, and the compensation has its
 * own COMMITTED record under {@link #compensationKey()} (see {@link dev.hfr.runtime.ledger.CompensationKeys}).
 *
 * @param tool the compensated tool's name ({@code SimpleClass.method})
 * @param compensateMethod the name of the compensate method that undid it
 * @param step the write's logical step within its task (the call's step number, as in {@link CommittedWrite#step()}),
 *     or {@link #UNKNOWN_STEP} when it was compensated outside its task with {@link Hfr#compensate}, which
 *     knows the write by its occurrence, not by its step
 * @param ledgerKey the original write's idempotency key
 * @param compensationKey the compensation's own idempotency key, derived from {@code ledgerKey}
 * @param alreadyApplied {@code true} when an earlier request had already run the compensation to its
 *     commit (and was interrupted before the original record was marked): it was not run again
 */
public record Compensation(
    String tool,
    String compensateMethod,
    long step,
    String ledgerKey,
    String compensationKey,
    boolean alreadyApplied) {

  /** The step of a write compensated outside its task: not known there. */
  public static final long UNKNOWN_STEP = -1;

  public Compensation {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(compensateMethod, "compensateMethod");
    Objects.requireNonNull(ledgerKey, "ledgerKey");
    Objects.requireNonNull(compensationKey, "compensationKey");
  }
}
