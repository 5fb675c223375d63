package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;

/**
 * The ledger's part of a write's {@link Call}: its key, lease and record state, and what the attempts so far
 * say about its effect. A call gets one when a write first needs it ({@link Call#writeState()}), so a read
 * carries none of it. Used by the thread running the call, as the call is.
 */
final class WriteState {

  String key;
  /**
   * The key an R1 write sends to its provider when it is not {@link #key}: the key of the unfinished write
   * of a cut-off run this write stands in for (a reopened task), so the provider deduplicates the two.
   */
  String wireKey;
  Lease lease;
  /** Renews {@link #lease} while the call runs; {@code null} without a lease. */
  LeaseHeartbeat.Beat heartbeat;
  LedgerState ledgerState;
  boolean alreadyCommitted;
  /** The call repeats an earlier write of its task (the model called the tool again): it has that write's key. */
  boolean recall;
  /** The result is a committed write's, kept by the task and answered without sending anything. */
  boolean replayed;
  /** The result was read back by a reconcile (or an R1 resend under the key), not returned by a first send. */
  boolean resultFromReconcile;
  /**
   * An attempt of this write failed in a way that does not prove it was not applied, and no reconcile has
   * found it absent since: whatever the later attempts say, its effect may be in place, so it must not be
   * sent anywhere without a key (a rung) — only resent under its key, or escalated.
   */
  boolean mayHaveApplied;
  /**
   * A rejected write was compensated, or (R1) reconciled absent: its next send takes the write's next key
   * ({@link RejectedWrite#prepareAgain}), since its provider answers the old key with the rejected answer.
   */
  boolean freshKey;
  /** How many fresh keys the call took: a call outside any task numbers its write's occurrences itself. */
  int freshKeys;
}
