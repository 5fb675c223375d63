package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.ToolMeters;

/**
 * OBSERVE (Table 9): feeds the attempt's outcome to the breaker and the meters. A write that returned is
 * checkpointed COMMITTED by VERIFY once its result is not rejected: a rejected result is no confirmation
 * that the write took effect, and is reconciled instead ({@link RejectedWrite}).
 */
final class Observe {

  Observe() {}

  <R> Next run(Call<R> c) {
    CircuitBreaker breaker = c.breaker();
    if (c.hasResult) {
      if (breaker != null) {
        breaker.onSuccess(c.lastLatencyNanos, c.lastAttemptEndNanos);
      }
      c.forgetBreakerFailure();
      c.holdsProbe = false;
      c.rt.meters.attempt(null, true);
      if (c.key() != null && !c.alreadyCommitted() && c.ledgerState() == LedgerState.UNKNOWN) {
        // An R1 write resent under its key (no reconcile method): the provider answered the key, so the
        // write took effect once, whichever attempt carried it (Table 7). VERIFY checkpoints it.
        c.writeState().resultFromReconcile = true;
        c.rt.meters.reconcile(ToolMeters.ReconcileOutcome.COMMITTED);
      }
      return Next.to(ControllerState.VERIFY);
    }
    return Next.to(ControllerState.CLASSIFY);
  }
}
