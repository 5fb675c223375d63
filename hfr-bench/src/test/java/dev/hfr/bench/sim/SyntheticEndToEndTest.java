package dev.hfr.bench.sim;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.bench.Progress;
import dev.hfr.bench.metrics.Metric;
import dev.hfr.bench.report.BenchReport;
import dev.hfr.bench.report.JsonReport;
import dev.hfr.bench.report.RunInfo;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.bench.workload.WriteModel;
import java.util.List;
import java.util.Map;
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
        List.of(Strategy.HFR, Strategy.HFR_NO_BREAKER), 200,
        List.of(new AssumptionVariant("strict", SyntheticPlan.seeds(1, 1), 700, List.of(Strategy.values()), p -> p.withWriteModel(WriteModel.STRICT)),
            new AssumptionVariant("no Retry-After", SyntheticPlan.seeds(1, 1), 700, List.of(Strategy.FIXED_RETRY3, Strategy.HFR),
                p -> p.withRetryAfterSeconds(0))),
        SyntheticPlan.seeds(1, 1), 300);
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

  private static SyntheticResults.VariantResult variant(String name) {
    return outcome.results().variants().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void blindRetriesWithoutKeysDuplicateSideEffectsAndKeyedRetriesDoNot() {
    assertThat(mean(Strategy.FIXED_RETRY3, Metric.DUP_PER_1000)).isGreaterThan(0);
    assertThat(mean(Strategy.HFR_NO_IDEMPOTENCY, Metric.DUP_PER_1000)).isGreaterThan(0);
    assertThat(mean(Strategy.RETRY_ONLY, Metric.DUP_PER_1000)).isZero();
  }

  @Test
  void hfrDuplicatesNoWriteThatHasNoLadder() {
    assertThat(variant("strict").result(Strategy.HFR).summary().get(Metric.DUP_PER_1000).mean()).isZero();
  }

  @Test
  void everyDuplicateOfHfrIsTracedToItsWriteBeingSentToTheRung() {
    // The engine's known paths: a timed-out keyed write degraded to its keyless rung, or the rung resent
    // after a timeout. When the engine closes them, this list is empty.
    assertThat(outcome.results().duplicateTrace().duplicatePaths()).allSatisfy(p -> assertThat(p.getKey()).contains("DEGRADE"));
  }

  @Test
  void aRejectedWriteThatHadCommittedIsWhatABlindResendDuplicates() {
    double paperModel = mean(Strategy.FIXED_RETRY3, Metric.DUP_PER_1000);
    double strict = variant("strict").result(Strategy.FIXED_RETRY3).summary().get(Metric.DUP_PER_1000).mean();
    assertThat(strict).isGreaterThan(paperModel);
  }

  @Test
  void fixedRetry3WaitsItsFixedDelayWhateverTheRetryAfterAndHfrWaitsTheRetryAfter() {
    Map<Strategy, Double> waits = outcome.results().retryAfterWaits();
    assertThat(waits.get(Strategy.FIXED_RETRY3)).isCloseTo(PARAMS.backoffBaseSeconds(), org.assertj.core.data.Offset.offset(1e-6));
    assertThat(waits.get(Strategy.HFR)).isGreaterThanOrEqualTo(PARAMS.retryAfterSeconds());
    assertThat(waits.get(Strategy.NO_RETRY)).isEqualTo(-1);
  }

  @Test
  void tableAHasNoInjectedFaults() {
    for (SyntheticResults.StrategyResult r : outcome.results().noFaults()) {
      for (dev.hfr.annotations.Fault f : dev.hfr.annotations.Fault.values()) {
        if (f != dev.hfr.annotations.Fault.V1) {
          assertThat(r.breakdown().attempts(f)).as(r.strategy().label() + " " + f).isZero();
        }
      }
    }
  }

  @Test
  void escalationsAreCountedByTheEnginesReasonAndMatchTheEscalationRate() {
    SyntheticResults.StrategyResult hfr = outcome.results().result(Strategy.HFR);
    long escalated = hfr.breakdown().tasks(dev.hfr.bench.metrics.Breakdown.Outcome.ESCALATED);
    assertThat(escalated).isEqualTo(Math.round(hfr.pooled().esc() * hfr.pooled().tasks()));
    assertThat(hfr.breakdown().endings()).anySatisfy(c -> assertThat(c.ending().reason()).isEqualTo("verification_failed"));
    // a baseline's would-be escalation is counted as its failure, with the engine's reason
    assertThat(outcome.results().result(Strategy.RETRY_ONLY).breakdown().tasks(dev.hfr.bench.metrics.Breakdown.Outcome.NO_ESCALATION_PATH))
        .isPositive();
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
        "bootstrap", "The largest gap is", "### Modelling assumptions that move the headline", "| HFR | strict |",
        "### Escalations and failures by reason and fault class", "### Attempts by fault class", "### Degradation quality delta",
        "### Where the latency goes", "### Table A", "does not honour Retry-After", "tied in both");
    assertThat(report.chart()).startsWith("<svg").contains("polyline").contains("HFR-verifier");
  }

  @Test
  void theRunTimeLineGivesTheCpuTimeAndNoMachineDiary() {
    RunTiming timing = outcome.timing();
    assertThat(timing.mainCpuSeconds()).as("CPU time of the main comparison").isPositive();
    String md = new BenchReport(new RunInfo("test", 1, "tiny", "now", "here"), outcome.results(), timing, null, PARAMS).markdown();
    assertThat(md).contains("Run time (", "s of CPU time", "tasks per CPU second").doesNotContain("load average");
  }
}
