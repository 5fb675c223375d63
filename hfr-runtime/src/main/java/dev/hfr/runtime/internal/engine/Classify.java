package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.ledger.LedgerState;

/**
 * CLASSIFY (Table 9): the failure's F2D-9 class and confidence; feeds the breaker and the attempt
 * history, and marks a write that may have happened UNKNOWN before anything is decided.
 */
final class Classify {

  private final HfrFeatures features;
  private final FailureHandling failures;
  private final WriteLedger writes;

  Classify(HfrFeatures features, FailureHandling failures, WriteLedger writes) {
    this.features = features;
    this.failures = failures;
    this.writes = writes;
  }

  <R> Next run(Call<R> c) {
    Classification previous = c.classification;
    Classification cls = features.classification()
        ? failures.classify(c.error, c.lastLatencyNanos) : FailureHandling.BLIND;
    c.classification = cls;
    // A guess is not a diagnosis: below this confidence the failure is handled as unclassified (§4.2).
    c.fault = cls.confidence() < Controller.MIN_CONFIDENCE ? Fault.UNCLASSIFIED : cls.fault();
    if (c.breaker() != null) {
      if (c.fault == Fault.T2 && cls.retryAfterMillis() >= 0) {
        // A 429 that says when to come back is pacing, not ill health: the target answered, and the wait is kept.
        c.forgetBreakerFailure();
      } else {
        // Health is judged per call, not per attempt, half-open probes included: counted only if the call
        // leaves this target failing, so a failure a retry fixes never counts.
        c.deferBreakerFailure();
      }
    }
    c.rt.meters.attempt(c.fault, false);
    boolean newEvidence = previous == null || previous.fault() != cls.fault() || !previous.rule().equals(cls.rule());
    c.history().recordFailure(c.fault, newEvidence);
    if (c.write() && !c.hasResult && c.fault != Fault.V1 && !ActionTable.provesNotApplied(c.fault, cls)) {
      c.writeState().mayHaveApplied = true;
    }
    if (c.key() != null && c.ledgerState() == LedgerState.PREPARED && !ActionTable.provesNotApplied(c.fault, cls)
        && c.risk() != Risk.R1 && !c.alreadyCommitted()) {
      // The write may have happened: record that before deciding anything (never a silent resend).
      writes.transition(c, LedgerState.UNKNOWN, null);
    }
    return Next.to(ControllerState.CHECK);
  }
}
