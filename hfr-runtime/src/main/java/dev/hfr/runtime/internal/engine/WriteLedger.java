package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.KeyInUseException;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.StaleFencingTokenException;
import dev.hfr.runtime.ledger.internal.LedgerRules;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The engine's side of the idempotency ledger (§4.5): a write's key and record, the lease that makes this
 * call its only recoverer (kept alive by the heartbeat, released on every exit), and every checkpoint of
 * its state, fenced by the lease's token.
 */
public final class WriteLedger {

  private final IdempotencyLedger ledger;
  private final Duration leaseTtl;
  private final WriteClaims claims;
  private final boolean keysWrites;

  /**
   * @param leaseTtl how long a write's lease lasts between two heartbeats
   * @param owner this engine's name in leases (each call adds its own number)
   * @param clock the engine's clock, for bounded waits on another holder
   * @param sleeper how such a wait sleeps
   */
  public WriteLedger(IdempotencyLedger ledger, Duration leaseTtl, String owner, Clock clock, Sleeper sleeper) {
    this(ledger, leaseTtl, owner, clock, sleeper, true);
  }

  /**
   * @param keysWrites {@code idempotency.enabled}: whether writes get ledger records and keys at all
   */
  public WriteLedger(IdempotencyLedger ledger, Duration leaseTtl, String owner, Clock clock, Sleeper sleeper,
      boolean keysWrites) {
    this(ledger, leaseTtl, owner, clock, sleeper, keysWrites, null);
  }

  /**
   * @param inbox where people's answers are read: a write a person had undone keeps its key, so the model's re-call
   *     is told so instead of making it anew; {@code null} without an inbox
   */
  public WriteLedger(IdempotencyLedger ledger, Duration leaseTtl, String owner, Clock clock, Sleeper sleeper,
      boolean keysWrites, dev.hfr.runtime.inbox.internal.InboxBook inbox) {
    this.ledger = Objects.requireNonNull(ledger, "ledger");
    this.leaseTtl = Objects.requireNonNull(leaseTtl, "leaseTtl");
    this.claims = new WriteClaims(ledger, clock, sleeper, leaseTtl, owner, inbox);
    this.keysWrites = keysWrites;
  }

  /** Whether writes get ledger records and keys ({@code idempotency.enabled}). */
  boolean keysWrites() {
    return keysWrites;
  }

  /** The write's key (occurrence or step id; an old ledger's step key when its record is found), and whether it is a re-call. */
  WriteClaims.Keyed key(CallTask task, String tool, List<Object> args, String argsHash, long step) {
    return claims.key(task, tool, args, argsHash, step);
  }

  /** The write's record under {@code key}, if the ledger holds one. */
  java.util.Optional<dev.hfr.runtime.ledger.LedgerRecord> find(String tenant, String key) {
    return ledger.find(tenant, key);
  }

  /** Finds or creates the write's record and decides whether this call may act on it (see {@link WriteClaims}). */
  WriteClaims.Claim claim(Call<?> c) {
    return claims.claim(c.task().tenant(), c.task().taskId(), c.key(), c.tool().name(), c.argsHash, c.task().deadline());
  }

  /** Why a claim found the key in use: the holder and the time its lease has left. */
  KeyInUseException inUse(WriteClaims.Claim claim) {
    return claims.inUse(claim);
  }

  /** The call holds {@code lease} from now on, renewed by the heartbeat until {@link #releaseLease}. */
  void hold(Call<?> c, Lease lease) {
    WriteState w = c.writeState();
    w.lease = lease;
    w.heartbeat = LeaseHeartbeat.start(ledger, lease, leaseTtl);
  }

  /**
   * Moves the call's record from its known state to {@code target}; the call then knows the new state.
   *
   * @throws LostKey if the call's lease lapsed and another recoverer took the key over
   */
  void transition(Call<?> c, LedgerState target, String resultHash) {
    long token = c.lease() == null ? 0L : c.lease().fencingToken();
    LedgerRecord r;
    try {
      r = ledger.transition(c.task().tenant(), c.key(), c.ledgerState(), target, resultHash, token);
    } catch (StaleFencingTokenException takenOver) {
      forget(c);
      throw new LostKey(takenOver);
    }
    c.writeState().ledgerState = r.state();
    if (LedgerRules.endsLease(target)) {
      forget(c); // the ledger ended the lease with this move: releasing it would be one more statement for nothing
    }
  }

  /**
   * Checkpoints the commit of a write whose attempt returned, once its result is not rejected: COMMITTED, or
   * RECONCILED_COMMITTED for an R1 write resent under its key after an unknown outcome (the provider answered
   * the key). A rejected result is no confirmation, so a write waits for its verdict (§4.5, Table 6); a record
   * already settled (reconciled, or committed before this call) is left as it is.
   */
  void commitReturned(Call<?> c) {
    if (c.key() != null && !c.alreadyCommitted()
        && (c.ledgerState() == LedgerState.PREPARED || c.ledgerState() == LedgerState.UNKNOWN)) {
      transition(c, c.ledgerState() == LedgerState.UNKNOWN ? LedgerState.RECONCILED_COMMITTED : LedgerState.COMMITTED,
          IdempotencyKeys.resultHash(c.result));
    }
  }

  /** Stops renewing and gives up the call's lease, if it holds one; never throws (every exit path runs it). */
  void releaseLease(Call<?> c) {
    WriteState w = c.writeStateIfAny();
    if (w == null) {
      return; // a read, or a write that never claimed its key
    }
    LeaseHeartbeat.Beat beat = w.heartbeat;
    w.heartbeat = null;
    Lease lease = beat != null ? beat.stop() : w.lease;
    w.lease = null;
    if (lease != null) {
      try {
        ledger.releaseLease(lease);
      } catch (RuntimeException unreachable) {
        // The lease then lapses by itself within one TTL: no heartbeat renews it any more.
      }
    }
  }

  /** Drops a lease another recoverer took over, or one the ledger ended: nothing of it is this call's to release. */
  private static void forget(Call<?> c) {
    WriteState w = c.writeStateIfAny();
    if (w == null) {
      return;
    }
    if (w.heartbeat != null) {
      w.heartbeat.stop();
      w.heartbeat = null;
    }
    w.lease = null;
  }
}
