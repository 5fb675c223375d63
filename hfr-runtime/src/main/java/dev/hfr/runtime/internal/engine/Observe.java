package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.ToolMeters;

/**
 * OBSERVE (Table 9): feeds the attempt's outcome to the breaker and the meters; a write that returned is
 * checkpointed COMMITTED in the ledger at once, before its result is verified.
 */
final class Observe {

  private final WriteLedger writes;

  Observe(WriteLedger writes) {
    this.writes = writes;
  }

  <R> Next run(Call<R> c) {
    CircuitBreaker breaker = c.breaker();
    if (c.hasResult) {
      if (breaker != null) {
        breaker.onSuccess(c.lastLatencyNanos, c.lastAttemptEndNanos);
      }
      c.forgetBreakerFailure();
      c.rt.meters.attempt(null, true);
      if (c.key != null && !c.alreadyCommitted) {
        if (c.ledgerState == LedgerState.UNKNOWN) {
          // An R1 write resent under its key (no reconcile method): the provider answered the key, so the
          // write is committed — once, whichever attempt carried it (Table 7).
          writes.transition(c, LedgerState.RECONCILED_COMMITTED, IdempotencyKeys.resultHash(c.result));
          c.resultFromReconcile = true;
          c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
        } else {
          // The tool confirmed the effect: checkpoint COMMITTED with its evidence before anything else.
          writes.transition(c, LedgerState.COMMITTED, IdempotencyKeys.resultHash(c.result));
        }
      }
      return Next.to(ControllerState.VERIFY);
    }
    return Next.to(ControllerState.CLASSIFY);
  }
}
