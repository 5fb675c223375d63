package dev.hfr.runtime.ledger;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger contract again, with every settled record moved to {@code ledger.db} before each call: what a
 * record read, changed, leased, compensated or expired from the store must behave like in memory.
 */
@DisplayName("EmbeddedFileLedger passes the ledger contract with its settled records in ledger.db")
class EmbeddedLedgerSettledRecordsTest extends IdempotencyLedgerContract {

  @TempDir Path tmp;
  private final AtomicInteger opened = new AtomicInteger();

  @Override
  protected IdempotencyLedger open(LedgerOptions options) {
    return new SettlingLedger(EmbeddedFileLedger.open(tmp.resolve("ledger-" + opened.incrementAndGet()), options));
  }

  @Override
  protected boolean leasesSurviveReopen() {
    return false;
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  @Override
  protected IdempotencyLedger reopen(IdempotencyLedger old, LedgerOptions options) {
    Path dir = ((SettlingLedger) old).embedded.directory();
    old.close();
    return new SettlingLedger(EmbeddedFileLedger.open(dir, options));
  }

  @Override
  protected String storedText() throws Exception {
    return EmbeddedFileLedgerTest.filesAsText(((SettlingLedger) ledger).embedded.directory());
  }
}
