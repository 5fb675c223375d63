package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.LedgerState;

/**
 * RETRY_WAIT (Table 9), after the wait: the driver has already waited the backoff DECIDE chose (slept by
 * {@link BlockingDriver}); a write that reconciliation found absent is prepared again before its resend.
 */
final class RetryWait {

  private final WriteLedger writes;

  RetryWait(WriteLedger writes) {
    this.writes = writes;
  }

  <R> Next run(Call<R> c) {
    if (c.key != null && c.ledgerState == LedgerState.RECONCILED_ABSENT) {
      writes.transition(c, LedgerState.PREPARED, null);
    }
    return Next.to(ControllerState.RUN_STEP);
  }
}
