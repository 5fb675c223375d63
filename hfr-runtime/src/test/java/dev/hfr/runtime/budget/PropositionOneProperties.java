package dev.hfr.runtime.budget;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.internal.retry.AttemptHistory;
import dev.hfr.runtime.internal.retry.RetryGate;
import dev.hfr.runtime.internal.retry.RetryRequest;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;

/**
 * Proposition 1 of the paper (§4.10) at the policy level: whatever the faults, a task of n steps with
 * per-step budget B_s and per-task budget B_t never makes more than {@code min(n(1+B_s), n+B_t)} attempts.
 */
class PropositionOneProperties {

  private static final RetrySpec RETRY_EVERYTHING = RetrySpec.of(50, 1, 1, Fault.T1, Fault.T2, Fault.T3, Fault.T4, Fault.T5, Fault.T6);

  @Property(tries = 500)
  @Label("total attempts never exceed min(n(1+Bs), n+Bt), for random fault sequences, risks, evidence and final-step reserves")
  void attemptsAreBounded(
      @ForAll @IntRange(min = 1, max = 12) int n,
      @ForAll @IntRange(min = 0, max = 6) int bs,
      @ForAll @IntRange(min = 0, max = 20) int bt,
      @ForAll @Size(min = 1, max = 200) List<Fault> faults,
      @ForAll Risk risk,
      @ForAll boolean alwaysNewEvidence,
      @ForAll @IntRange(min = 0, max = 20) int reserveSeed) {
    RetryGate gate = RetryGate.builder().sameFaultLimit(1 + bs + 1).build();
    RetryBudget task = RetryBudget.perTask(bt, Math.min(bt, reserveSeed));
    int attempts = 0;
    int next = 0;
    for (int s = 0; s < n; s++) {
      RetryBudget.Step step = s == n - 1 ? task.openFinalStep(1 + bs) : task.openStep(1 + bs);
      AttemptHistory history = new AttemptHistory();
      attempts++;
      while (true) {
        Fault fault = faults.get(next++ % faults.size());
        if (fault == Fault.UNCLASSIFIED && next % 7 == 0) {
          break; // read as a success: the step ends
        }
        history.recordFailure(fault, alwaysNewEvidence);
        // Give the gate every chance to say yes: compressed and reconciled before each check.
        history.markCompressed();
        history.markReconciledAbsent();
        if (!gate.check(RetryRequest.builder(fault, risk, RETRY_EVERYTHING, history, step).build()).retry()) {
          break;
        }
        attempts++;
      }
    }
    assertThat(attempts).isLessThanOrEqualTo(Math.min(n * (1 + bs), n + bt));
  }
}
