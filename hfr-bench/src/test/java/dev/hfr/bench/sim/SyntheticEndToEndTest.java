package dev.hfr.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.bench.Progress;
import dev.hfr.bench.metrics.Metric;
import dev.hfr.bench.report.BenchReport;
import dev.hfr.bench.report.JsonReport;
import dev.hfr.bench.report.RunInfo;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A tiny synthetic run of every strategy on the real engine")
class SyntheticEndToEndTest {

  private static final WorkloadParameters PARAMS = WorkloadParameters.standard();
  private static SyntheticBenchmark.Outcome outcome;

  private static SyntheticPlan tinyPlan() {
    return new SyntheticPlan(SyntheticPlan.seeds(1, 2), 700, List.of(Strategy.values()), 42, 200, List.of(0.05, 0.32),
        List.of(Strategy.NO_RETRY, Strategy.HFR), SyntheticPlan.seeds(1, 1), 200, 0.20, List.of(0.40), 0.6,
        List.of(Strategy.HFR, Strategy.HFR_NO_BREAKER), 200);
  }

  private static SyntheticBenchmark.Outcome run(int threads) {
    try (Progress silent = Progress.silent()) {
      return new SyntheticBenchmark(PARAMS, new EngineRunner(), threads, silent).run(tinyPlan());
    }
  }

  @BeforeAll
  static void runOnce() {
    outcome = run(2);
  }

  private static double mean(Strategy s, Metric m) {
    return outcome.results().result(s).summary().get(m).mean();
  }

  @Test
  void blindRetriesWithoutKeysDuplicateSideEffectsAndHfrDoesNot() {
    assertThat(mean(Strategy.FIXED_RETRY3, Metric.DUP_PER_1000)).isGreaterThan(0);
    assertThat(mean(Strategy.HFR_NO_IDEMPOTENCY, Metric.DUP_PER_1000)).isGreaterThan(0);
    assertThat(mean(Strategy.HFR, Metric.DUP_PER_1000)).isZero();
    assertThat(mean(Strategy.RETRY_ONLY, Metric.DUP_PER_1000)).isZero();
  }

  @Test
  void noRetryHasTheLowestSuccessRate() {
    double noRetry = mean(Strategy.NO_RETRY, Metric.SR);
    for (Strategy s : Strategy.values()) {
      if (s != Strategy.NO_RETRY) {
        assertThat(mean(s, Metric.SR)).as(s.label()).isGreaterThan(noRetry);
      }
    }
  }

  @Test
  void hfrCompletesSafelyMoreOftenThanEveryBaseline() {
    double hfr = mean(Strategy.HFR, Metric.SCR);
    for (Strategy s : List.of(Strategy.NO_RETRY, Strategy.FIXED_RETRY3, Strategy.RETRY_ONLY, Strategy.DEGRADE_ONLY, Strategy.HFR_NO_VERIFIER)) {
      assertThat(hfr).as("HFR vs " + s.label()).isGreaterThan(mean(s, Metric.SCR));
    }
  }

  @Test
  void withoutTheVerifierWrongResultsAreAcceptedSilently() {
    assertThat(mean(Strategy.HFR_NO_VERIFIER, Metric.SR)).isLessThan(mean(Strategy.HFR, Metric.SR));
    assertThat(mean(Strategy.HFR_NO_VERIFIER, Metric.FALSE_ACCEPT)).isGreaterThan(mean(Strategy.HFR, Metric.FALSE_ACCEPT));
  }

  @Test
  void onlyStrategiesThatDegradeHaveDegradedTasksAndOnlyHfrEscalates() {
    assertThat(mean(Strategy.RETRY_ONLY, Metric.DEG)).isZero();
    assertThat(mean(Strategy.DEGRADE_ONLY, Metric.DEG)).isPositive();
    assertThat(mean(Strategy.NO_RETRY, Metric.ESC)).isZero();
    assertThat(mean(Strategy.HFR, Metric.ESC)).isPositive();
  }

  @Test
  void theSameSeedGivesIdenticalJsonWhateverTheThreadCount() {
    String first = JsonReport.toJson(outcome.results());
    assertThat(JsonReport.toJson(run(1).results())).isEqualTo(first);
  }

  @Test
  void theReportShowsThePapersFiguresBesideOursAndAChart() {
    BenchReport report = new BenchReport(new RunInfo("test", 1, "tiny", "now", "here"), outcome.results(), outcome.timing(), null, PARAMS);
    String md = report.markdown();
    assertThat(md).contains("### Table 12", "### Table 13", "### Table 14", "### Table 15", "### Table C1", "(86.25 ± 0.32)",
        "bootstrap", "The largest gap is");
    assertThat(report.chart()).startsWith("<svg").contains("polyline").contains("HFR-verifier");
  }

  @Test
  void theRunTimeLineSaysHowBusyTheMachineWas() {
    RunTiming timing = outcome.timing();
    assertThat(timing.mainCpuSeconds()).as("CPU time of the main comparison").isPositive();
    assertThat(timing.loadBefore()).as("load average at the start (Linux reports one)").isNotNegative();
    String md = new BenchReport(new RunInfo("test", 1, "tiny", "now", "here"), outcome.results(), timing, null, PARAMS).markdown();
    assertThat(md).contains("Run time on this machine", "s of CPU time", "tasks per CPU second", "with a load average of");
  }
}
