package dev.hfr.spring.boot;

import dev.hfr.runtime.ledger.LedgerLockedException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * A second instance started on the ledger directory another one holds: the embedded ledger belongs to one process.
 * Says which property moves it, instead of a stack trace.
 */
class LedgerLockedFailureAnalyzer extends AbstractFailureAnalyzer<LedgerLockedException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, LedgerLockedException cause) {
    return new FailureAnalysis("HFR's embedded ledger is in use by another process: " + cause.getMessage(),
        "Give each instance its own directory with hfr.idempotency.path (e.g. hfr.idempotency.path=hfr-ledger-${server.port}),"
            + " stop the other instance, or share one ledger between instances with hfr.idempotency.ledger=postgres"
            + " (docs/CONFIG.md, idempotency).", cause);
  }
}
