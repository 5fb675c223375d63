package dev.hfr.runtime.engine;

import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The engine's side of the idempotency ledger (§4.5): a write's record, the lease that makes this call
 * its only recoverer, and every checkpoint of its state, fenced by the lease's token.
 */
public final class WriteLedger {

  private final IdempotencyLedger ledger;
  private final Duration leaseTtl;
  private final String owner;

  /**
   * @param leaseTtl how long a call holds the lease on its write's key
   * @param owner this engine's name in leases
   */
  public WriteLedger(IdempotencyLedger ledger, Duration leaseTtl, String owner) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.leaseTtl = Objects.requireNonNull(leaseTtl, "leaseTtl");
    this.owner = Objects.requireNonNull(owner, "owner");
  }

  Optional<LedgerRecord> find(String tenant, String key) {
    return ledger.find(tenant, key);
  }

  LedgerRecord prepare(String tenant, String key, String tool, String argsHash) {
    return ledger.prepare(tenant, key, tool, argsHash);
  }

  /** The lease on {@code key} for this engine, or empty while another recoverer holds it. */
  Optional<Lease> acquireLease(String tenant, String key) {
    return ledger.acquireLease(tenant, key, owner, leaseTtl);
  }

  /** Moves the call's record from its known state to {@code target}; the call then knows the new state. */
  void transition(Call<?> c, LedgerState target, String resultHash) {
    long token = c.lease == null ? 0L : c.lease.fencingToken();
    LedgerRecord r = ledger.transition(c.task.tenant(), c.key, c.ledgerState, target, resultHash, token);
    c.ledgerState = r.state();
  }

  /** Gives up the call's lease, if it holds one. */
  void releaseLease(Call<?> c) {
    if (c.lease != null) {
      Lease lease = c.lease;
      c.lease = null;
      ledger.releaseLease(lease);
    }
  }
}
