package dev.hfr.runtime.internal.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitState;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("RetryGate: the stop conditions of §4.3")
class RetryGateTest {

  private static final RetrySpec SPEC = RetrySpec.of(4, 200, 2000, Fault.T1, Fault.T2, Fault.T3);
  private final RetryGate gate = RetryGate.builder().build();
  private final RetryBudget task = RetryBudget.perTask(10);

  private RetryVerdict failOnce(Fault fault, Risk risk) {
    AttemptHistory history = new AttemptHistory();
    history.recordFailure(fault, false);
    return gate.check(RetryRequest.builder(fault, risk, SPEC, history, task.openStep(4)).build());
  }

  @Test
  @DisplayName("a transient fault of a read is retried, and the retry is charged to step and task")
  void transientFaultIsRetriedAndCharged() {
    AttemptHistory history = new AttemptHistory();
    RetryBudget.Step step = task.openStep(4);
    history.recordFailure(Fault.T1, false);
    RetryVerdict verdict = gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, step).build());
    assertThat(verdict.retry()).isTrue();
    assertThat(verdict.reason()).isNull();
    assertThat(verdict.code()).isEqualTo("retry");
    assertThat(step.attempts()).isEqualTo(2);
    assertThat(task.retriesUsed()).isEqualTo(1);
  }

  @Test
  @DisplayName("T8 is never retried, whatever the risk")
  void policyRefusalIsNeverRetried() {
    for (Risk risk : Risk.values()) {
      assertThat(failOnce(Fault.T8, risk).reason()).isEqualTo(StopReason.POLICY_REFUSAL);
    }
  }

  @Test
  @DisplayName("T7 is never retried")
  void permanentFaultIsNeverRetried() {
    assertThat(failOnce(Fault.T7, Risk.R0).reason()).isEqualTo(StopReason.PERMANENT_FAULT);
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"T1", "T2", "T3", "UNCLASSIFIED", "V1"})
  @DisplayName("R3 is never retried")
  void irreversibleIsNeverRetried(Fault fault) {
    assertThat(failOnce(fault, Risk.R3).reason()).isEqualTo(StopReason.IRREVERSIBLE);
  }

  @Test
  @DisplayName("T3 of an R2 write: reconcile first; after RECONCILED_ABSENT one retry, then reconcile again")
  void timeoutOfAWriteReconcilesFirst() {
    AttemptHistory history = new AttemptHistory();
    RetryBudget.Step step = task.openStep(4);
    history.recordFailure(Fault.T3, false);
    assertThat(gate.check(RetryRequest.builder(Fault.T3, Risk.R2, SPEC, history, step).build()).reason())
        .isEqualTo(StopReason.RECONCILE_FIRST);
    assertThat(step.attempts()).isEqualTo(1);

    history.markReconciledAbsent();
    assertThat(gate.check(RetryRequest.builder(Fault.T3, Risk.R2, SPEC, history, step).build()).retry()).isTrue();

    history.recordFailure(Fault.T3, true);
    assertThat(gate.check(RetryRequest.builder(Fault.T3, Risk.R2, SPEC, history, step).build()).reason())
        .isEqualTo(StopReason.RECONCILE_FIRST);
  }

  @Test
  @DisplayName("T3 of a read or an idempotent (R1) write is retried directly")
  void timeoutOfAReadIsRetried() {
    assertThat(failOnce(Fault.T3, Risk.R0).retry()).isTrue();
    assertThat(failOnce(Fault.T3, Risk.R1).retry()).isTrue();
  }

  @Test
  @DisplayName("an unclassified failure: a read gets one probe; a write is reconciled first")
  void unclassifiedIsConservativeByRisk() {
    AttemptHistory read = new AttemptHistory();
    RetryBudget.Step step = task.openStep(4);
    read.recordFailure(Fault.UNCLASSIFIED, false);
    assertThat(gate.check(RetryRequest.builder(Fault.UNCLASSIFIED, Risk.R0, SPEC, read, step).build()).retry()).isTrue();
    read.recordFailure(Fault.UNCLASSIFIED, true);
    assertThat(gate.check(RetryRequest.builder(Fault.UNCLASSIFIED, Risk.R0, SPEC, read, step).build()).reason())
        .isEqualTo(StopReason.UNCLASSIFIED_PROBED);

    assertThat(failOnce(Fault.UNCLASSIFIED, Risk.R1).reason()).isEqualTo(StopReason.RECONCILE_FIRST);
    assertThat(failOnce(Fault.UNCLASSIFIED, Risk.R2).reason()).isEqualTo(StopReason.RECONCILE_FIRST);
  }

  @ParameterizedTest
  @EnumSource(value = Fault.class, names = {"T4", "T5"})
  @DisplayName("T4 and T5 are not retried against the same target")
  void overloadAndToolFaultsNeedAnotherTarget(Fault fault) {
    RetrySpec all = RetrySpec.of(4, 200, 2000, Fault.T1, Fault.T4, Fault.T5);
    AttemptHistory history = new AttemptHistory();
    history.recordFailure(fault, false);
    assertThat(gate.check(RetryRequest.builder(fault, Risk.R0, all, history, task.openStep(4)).build()).reason())
        .isEqualTo(StopReason.NEEDS_OTHER_TARGET);
  }

  @Test
  @DisplayName("T6 is retried only after compression, and each compression buys one retry")
  void contextOverflowNeedsCompression() {
    AttemptHistory history = new AttemptHistory();
    RetryBudget.Step step = task.openStep(4);
    history.recordFailure(Fault.T6, false);
    assertThat(gate.check(RetryRequest.builder(Fault.T6, Risk.R0, SPEC, history, step).build()).reason())
        .isEqualTo(StopReason.COMPRESS_FIRST);
    history.markCompressed();
    assertThat(gate.check(RetryRequest.builder(Fault.T6, Risk.R0, SPEC, history, step).build()).retry()).isTrue();
    history.recordFailure(Fault.T6, true);
    assertThat(gate.check(RetryRequest.builder(Fault.T6, Risk.R0, SPEC, history, step).build()).reason())
        .isEqualTo(StopReason.COMPRESS_FIRST);
  }

  @Test
  @DisplayName("a fault class outside retryOn is not retried")
  void classOutsideRetryOnIsNotRetried() {
    RetrySpec onlyT1 = RetrySpec.of(4, 200, 2000, Fault.T1);
    AttemptHistory history = new AttemptHistory();
    history.recordFailure(Fault.T2, false);
    assertThat(gate.check(RetryRequest.builder(Fault.T2, Risk.R0, onlyT1, history, task.openStep(4)).build()).reason())
        .isEqualTo(StopReason.NOT_RETRYABLE_CLASS);
  }

  @Test
  @DisplayName("the same fault K = 3 times in a row without new evidence stops; new evidence restarts the count")
  void sameFaultWithoutNewEvidenceStops() {
    AttemptHistory history = new AttemptHistory();
    RetryBudget.Step step = RetryBudget.perTask(100).openStep(100);
    RetrySpec many = RetrySpec.of(100, 1, 1, Fault.T1);
    history.recordFailure(Fault.T1, false);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, many, history, step).build()).retry()).isTrue();
    history.recordFailure(Fault.T1, false);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, many, history, step).build()).retry()).isTrue();
    history.recordFailure(Fault.T1, false);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, many, history, step).build()).reason())
        .isEqualTo(StopReason.SAME_FAULT_REPEATED);

    history.recordFailure(Fault.T1, true);
    assertThat(history.sameFaultStreak()).isEqualTo(1);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, many, history, step).build()).retry()).isTrue();
  }

  @Test
  @DisplayName("semantic retries: only with new evidence, and never after the same verifier reason twice")
  void verifierRejections() {
    RetryBudget.Step step = task.openStep(4);
    AttemptHistory history = new AttemptHistory();
    history.recordRejection("total_mismatch", false);
    assertThat(gate.check(RetryRequest.builder(Fault.V1, Risk.R0, SPEC, history, step).build()).retry()).isTrue();
    history.recordRejection("total_mismatch", true);
    assertThat(gate.check(RetryRequest.builder(Fault.V1, Risk.R0, SPEC, history, step).build()).reason())
        .isEqualTo(StopReason.SAME_VERIFIER_REASON);

    AttemptHistory other = new AttemptHistory();
    other.recordRejection("missing_field", false);
    other.recordRejection("schema_mismatch", false);
    assertThat(gate.check(RetryRequest.builder(Fault.V1, Risk.R0, SPEC, other, task.openStep(4)).build()).reason())
        .isEqualTo(StopReason.SAME_FAULT_REPEATED);
  }

  @Test
  @DisplayName("V1 of a write is not retried while its effect may be in place, and is once it was found absent or undone")
  void verifierRejectionOfAWriteIsRetriedOnlyOnceProvenNotInPlace() {
    AttemptHistory history = new AttemptHistory();
    history.recordRejection("total_mismatch", true);
    assertThat(gate.check(RetryRequest.builder(Fault.V1, Risk.R1, SPEC, history, task.openStep(4)).build()).reason())
        .isEqualTo(StopReason.SIDE_EFFECT_COMMITTED);
    history.markReconciledAbsent();
    assertThat(gate.check(RetryRequest.builder(Fault.V1, Risk.R2, SPEC, history, task.openStep(4)).build()).retry()).isTrue();
  }

  @Test
  @DisplayName("an open (or half-open) breaker stops retries to its target")
  void openBreakerStopsRetries() {
    VirtualTime time = new VirtualTime();
    CircuitBreaker breaker = new CircuitBreaker(TargetKind.TOOL, "Orders.find",
        CircuitBreakerConfig.builder().consecutiveFailures(1).cooldownJitter(0).build(), time, new SplittableRandom(1));
    breaker.tryAcquire();
    breaker.onFailure(Fault.T1, 1);
    assertThat(breaker.state()).isEqualTo(CircuitState.OPEN);
    AttemptHistory history = new AttemptHistory();
    history.recordFailure(Fault.T1, false);
    RetryBudget.Step step = task.openStep(4);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, step).breaker(breaker).build()).reason())
        .isEqualTo(StopReason.BREAKER_OPEN);
    assertThat(step.attempts()).isEqualTo(1);
  }

  @Test
  @DisplayName("a retry that cannot finish, verified, by the deadline is not made")
  void deadlineStopsRetries() {
    VirtualTime time = new VirtualTime();
    Deadline deadline = Deadline.after(time, Duration.ofSeconds(2));
    AttemptHistory history = new AttemptHistory();
    history.recordFailure(Fault.T1, false);
    long now = time.nanoTime();
    RetryVerdict late = gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, task.openStep(4))
        .deadline(deadline, now, 1_000_000_000L, 900_000_000L, 200_000_000L).build());
    assertThat(late.reason()).isEqualTo(StopReason.DEADLINE);
    RetryVerdict inTime = gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, task.openStep(4))
        .deadline(deadline, now, 1_000_000_000L, 800_000_000L, 200_000_000L).build());
    assertThat(inTime.retry()).isTrue();
  }

  @Test
  @DisplayName("maxAttempts counts attempts: maxAttempts = 4 allows exactly 3 retries")
  void maxAttemptsCountsAttempts() {
    AttemptHistory history = new AttemptHistory();
    RetryBudget.Step step = task.openStep(4);
    int retries = 0;
    for (int i = 0; i < 10; i++) {
      history.recordFailure(Fault.T2, true);
      RetryVerdict verdict = gate.check(RetryRequest.builder(Fault.T2, Risk.R0, SPEC, history, step).build());
      if (!verdict.retry()) {
        assertThat(verdict.reason()).isEqualTo(StopReason.STEP_ATTEMPTS_EXHAUSTED);
        break;
      }
      retries++;
    }
    assertThat(retries).isEqualTo(3);
    assertThat(step.attempts()).isEqualTo(4);
  }

  @Test
  @DisplayName("the spec's maxAttempts and the step budget's limit: the smaller wins")
  void smallerAttemptLimitWins() {
    AttemptHistory history = new AttemptHistory();
    RetryBudget.Step step = task.openStep(2);
    history.recordFailure(Fault.T1, true);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, step).build()).retry()).isTrue();
    history.recordFailure(Fault.T1, true);
    assertThat(gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, step).build()).reason())
        .isEqualTo(StopReason.STEP_ATTEMPTS_EXHAUSTED);
  }

  @Test
  @DisplayName("the task budget stops retries across steps")
  void taskBudgetStops() {
    RetryBudget small = RetryBudget.perTask(2);
    int granted = 0;
    for (int s = 0; s < 5; s++) {
      AttemptHistory history = new AttemptHistory();
      history.recordFailure(Fault.T1, false);
      RetryVerdict verdict = gate.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, small.openStep(4)).build());
      if (verdict.retry()) {
        granted++;
      } else {
        assertThat(verdict.reason()).isEqualTo(StopReason.TASK_BUDGET_EXHAUSTED);
      }
    }
    assertThat(granted).isEqualTo(2);
  }

  @Test
  @DisplayName("an exhausted tenant stops retries, and the step and task are not charged for the refused one")
  void tenantBudgetStopsAndRefundsTheStep() {
    VirtualTime time = new VirtualTime();
    TenantRetryBudgets tenants = TenantRetryBudgets.builder(time).retriesPerWindow(1).build();
    RetryGate withTenants = RetryGate.builder().tenantBudgets(tenants).build();
    RetryBudget.Step step = task.openStep(4);
    AttemptHistory history = new AttemptHistory();
    history.recordFailure(Fault.T1, true);
    assertThat(withTenants.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, step).tenant("acme").build()).retry())
        .isTrue();
    history.recordFailure(Fault.T1, true);
    assertThat(withTenants.check(RetryRequest.builder(Fault.T1, Risk.R0, SPEC, history, step).tenant("acme").build()).reason())
        .isEqualTo(StopReason.TENANT_BUDGET_EXHAUSTED);
    assertThat(step.attempts()).isEqualTo(2);
    assertThat(task.retriesUsed()).isEqualTo(1);
  }

  @Test
  @DisplayName("every verdict is a shared constant: checking does not allocate verdicts")
  void verdictsAreShared() {
    assertThat(RetryVerdict.stop(StopReason.DEADLINE)).isSameAs(RetryVerdict.stop(StopReason.DEADLINE));
    assertThat(RetryVerdict.stop(StopReason.BREAKER_OPEN).code()).isEqualTo("breaker_open");
    assertThatThrownBy(() -> RetryVerdict.stop(null)).isInstanceOf(NullPointerException.class);
  }

  @Nested
  @DisplayName("builders name the bad argument")
  class Builders {
    @Test
    void gateBuilder() {
      assertThatThrownBy(() -> RetryGate.builder().sameFaultLimit(0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sameFaultLimit");
      assertThatThrownBy(() -> RetryGate.builder().sameVerifierReasonLimit(0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sameVerifierReasonLimit");
    }

    @Test
    void requestBuilder() {
      AttemptHistory h = new AttemptHistory();
      assertThatThrownBy(() -> RetryRequest.builder(null, Risk.R0, SPEC, h, task.openStep(1)))
          .isInstanceOf(NullPointerException.class).hasMessageContaining("fault");
      assertThatThrownBy(() -> RetryRequest.builder(Fault.T1, Risk.R0, SPEC, h, task.openStep(1)).tenant(" "))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tenant");
      assertThatThrownBy(() -> RetryRequest.builder(Fault.T1, Risk.R0, SPEC, h, task.openStep(1)).deadline(Deadline.NONE, 0, -1, 0, 0))
          .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("delayNanos");
    }
  }
}
