package dev.hfr.runtime.ledger;

import org.junit.jupiter.api.DisplayName;

@DisplayName("InMemoryLedger passes the ledger contract")
class InMemoryLedgerTest extends IdempotencyLedgerContract {

  @Override
  protected IdempotencyLedger open(LedgerOptions options) {
    return new InMemoryLedger(options);
  }
}
