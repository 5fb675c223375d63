package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.LedgerStorageException;

/** A ledger whose storage fails on every transition (a disk or database outage after the intent was written). */
final class FailingTransitionsLedger extends ForwardingLedger {

  FailingTransitionsLedger(IdempotencyLedger delegate) {
    super(delegate);
  }

  @Override
  public LedgerRecord transition(String tenant, String key, LedgerState expected, LedgerState target, String resultHash,
      long fencingToken) {
    throw new LedgerStorageException("ledger volume is read-only");
  }
}
