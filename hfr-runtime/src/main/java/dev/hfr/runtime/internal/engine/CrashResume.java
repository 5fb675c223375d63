package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.IllegalLedgerTransitionException;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.StaleFencingTokenException;
import java.time.Duration;
import java.util.Optional;

/**
 * Crash resume (§5.4): replays the ledger before anything else runs. A PREPARED record whose lease can be
 * taken belongs to a writer that vanished mid-call: its write may or may not have happened, so it becomes
 * UNKNOWN, and the next call on its key reconciles before acting: through the tool's reconcile method,
 * or — for an idempotent (R1) tool without one — by resending under the same key, which the provider
 * deduplicates (Table 7); an R2/R3 write without a reconcile method is escalated, never resent. A
 * compensation record left PREPARED becomes UNKNOWN the same way and is escalated, never re-run, when its
 * write is compensated again. Records another live holder leases are left alone.
 */
public final class CrashResume {

  private static final Duration RESUME_LEASE = Duration.ofSeconds(30);

  private CrashResume() {}

  /** Marks every abandoned PREPARED record UNKNOWN; returns how many. */
  public static int markAbandonedWritesUnknown(IdempotencyLedger ledger, String owner) {
    int marked = 0;
    for (LedgerRecord r : ledger.pending()) {
      if (r.state() != LedgerState.PREPARED) {
        continue;
      }
      Optional<Lease> lease = ledger.acquireLease(r.tenant(), r.key(), owner + "-resume", RESUME_LEASE);
      if (lease.isEmpty()) {
        continue;
      }
      try {
        ledger.transition(r.tenant(), r.key(), LedgerState.PREPARED, LedgerState.UNKNOWN, null, lease.get().fencingToken());
        marked++;
      } catch (IllegalLedgerTransitionException | StaleFencingTokenException moved) {
        // Someone acted on the key between listing and leasing it: their state stands.
      } finally {
        ledger.releaseLease(lease.get());
      }
    }
    return marked;
  }
}
