package dev.hfr.runtime.ledger;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * The states of a side-effect ledger record and the transitions between them (the paper's Table 6).
 * Anything not listed by {@link #canMoveTo} is an illegal transition and is refused, never applied.
 */
public enum LedgerState {
  /** The intent is recorded before the first attempt; the outcome is not known yet. */
  PREPARED,
  /** The tool confirmed the effect: never retried again. */
  COMMITTED,
  /** The tool confirmed nothing was committed: may be retried (if idempotent) or degraded. */
  FAILED,
  /** Timeout or dropped connection: must be reconciled before anything else. */
  UNKNOWN,
  /** Reconciliation found the effect committed: counts as success, never retried. */
  RECONCILED_COMMITTED,
  /** Reconciliation found the effect absent: may be retried with the same key. */
  RECONCILED_ABSENT,
  /** A compensating action undid the effect; its evidence is kept. */
  COMPENSATED;

  static {
    PREPARED.next = EnumSet.of(COMMITTED, FAILED, UNKNOWN);
    FAILED.next = EnumSet.of(PREPARED);
    UNKNOWN.next = EnumSet.of(RECONCILED_COMMITTED, RECONCILED_ABSENT, UNKNOWN);
    RECONCILED_ABSENT.next = EnumSet.of(PREPARED);
    COMMITTED.next = EnumSet.of(COMPENSATED);
    RECONCILED_COMMITTED.next = EnumSet.of(COMPENSATED);
    COMPENSATED.next = EnumSet.noneOf(LedgerState.class);
  }

  private Set<LedgerState> next;

  /** Whether a record in this state may move to {@code target}. */
  public boolean canMoveTo(LedgerState target) {
    return next.contains(target);
  }

  /** The states this one may move to. */
  public Set<LedgerState> successors() {
    return Collections.unmodifiableSet(next);
  }

  /** Whether the effect is known to be in place (committed, directly or by reconciliation). */
  public boolean isCommitted() {
    return this == COMMITTED || this == RECONCILED_COMMITTED;
  }

  /** Whether recovery must reconcile before acting again (crash resume replays these). */
  public boolean needsReconcile() {
    return this == PREPARED || this == UNKNOWN;
  }
}
