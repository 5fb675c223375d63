package dev.hfr.bench.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RunMetrics computes the §3.4 metrics exactly on a table small enough to check by hand")
class RunMetricsTest {

  private static TaskTable fourTasks() {
    TaskTable t = new TaskTable(2); // grows past its capacity
    // clean success: cost 2, 3 s, 4 attempts over 4 steps
    t.add(new TaskResult(true, false, true, 0, 2.0, 3_000_000_000L, 4, 4, false, -1));
    // success with one duplicate side effect, degraded, recovered after 1.5 s
    t.add(new TaskResult(true, false, true, 1, 3.0, 5_000_000_000L, 6, 4, true, 1_500_000_000L));
    // escalated: not a success but a safe completion
    t.add(new TaskResult(false, true, false, 0, 4.0, 13_000_000_000L, 5, 3, false, 10_500_000_000L));
    // silently wrong: the harness accepted it, the truth says failed
    t.add(new TaskResult(false, false, true, 0, 1.0, 2_000_000_000L, 5, 5, false, -1));
    return t;
  }

  @Test
  void ratesCountSuccessCleanAndSafeCompletion() {
    RunMetrics m = RunMetrics.of(fourTasks());
    assertThat(m.tasks()).isEqualTo(4);
    assertThat(m.sr()).isEqualTo(0.5);
    assertThat(m.csr()).isEqualTo(0.25);
    assertThat(m.scr()).isEqualTo(0.5); // task 1 and the escalated task 3; task 2 has a duplicate
    assertThat(m.esc()).isEqualTo(0.25);
    assertThat(m.deg()).isEqualTo(0.25);
  }

  @Test
  void costPerSuccessDividesAllCostBySuccesses() {
    RunMetrics m = RunMetrics.of(fourTasks());
    assertThat(m.cps()).isEqualTo(10.0 / 2);
    assertThat(m.meanCost()).isEqualTo(2.5);
  }

  @Test
  void duplicatesAreCountedPerThousandTasks() {
    assertThat(RunMetrics.of(fourTasks()).dupPer1000()).isEqualTo(250.0);
  }

  @Test
  void retryAmplificationIsAttemptsOverLogicalSteps() {
    RunMetrics m = RunMetrics.of(fourTasks());
    assertThat(m.retryAmplification()).isEqualTo(20.0 / 16);
    assertThat(m.meanAttempts()).isEqualTo(5.0);
  }

  @Test
  void falseAcceptRateIsWrongAcceptedOverAccepted() {
    assertThat(RunMetrics.of(fourTasks()).falseAcceptRate()).isEqualTo(1.0 / 3);
  }

  @Test
  void latencyPercentilesSplitEscalatedTasksOut() {
    RunMetrics m = RunMetrics.of(fourTasks());
    assertThat(m.p99()).isCloseTo(13.0, within(0.01));
    assertThat(m.p99NonEscalated()).isCloseTo(5.0, within(0.01));
    assertThat(m.p50NonEscalated()).isCloseTo(3.0, within(0.01));
  }

  @Test
  void recoveryTimeAveragesTasksThatRecovered() {
    assertThat(RunMetrics.of(fourTasks()).meanRecoverySeconds()).isCloseTo(6.0, within(1e-9));
  }

  @Test
  void noSuccessMeansInfiniteCostPerSuccess() {
    TaskTable t = new TaskTable(1);
    t.add(new TaskResult(false, false, false, 0, 1.0, 1_000_000L, 1, 1, false, -1));
    assertThat(RunMetrics.of(t).cps()).isInfinite();
  }
}
