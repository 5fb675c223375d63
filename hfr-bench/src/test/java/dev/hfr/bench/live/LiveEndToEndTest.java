package dev.hfr.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.bench.Progress;
import dev.hfr.bench.live.tools.VerifierNoise;
import dev.hfr.bench.strategy.Strategy;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A tiny live run through the generated proxies against the real services")
class LiveEndToEndTest {

  @Test
  void servicesCountDuplicatesOfBlindRetriesAndNoneOfHfr() throws Exception {
    LivePlan plan = new LivePlan(3, 1, List.of(new LiveScenario("20 %", 0.20, 0)), List.of(Strategy.FIXED_RETRY3, Strategy.HFR), 40, 32,
        1000, 200, 10.0, 2.0, VerifierNoise.PERFECT);
    LiveResults results;
    try (Progress silent = Progress.silent()) {
      results = new LiveBenchmark(plan, silent).run();
    }
    assertThat(results.cells()).hasSize(2);
    LiveResults.Cell fixed = results.cells().get(0);
    LiveResults.Cell hfr = results.cells().get(1);
    assertThat(fixed.strategy()).isEqualTo(Strategy.FIXED_RETRY3);
    assertThat(fixed.metrics().tasks()).isEqualTo(40);
    assertThat(fixed.requests().get("model")).isGreaterThanOrEqualTo(40);
    assertThat(fixed.duplicates().values().stream().mapToInt(Integer::intValue).sum()).isPositive();
    assertThat(hfr.duplicates().values()).allMatch(d -> d == 0);
    assertThat(hfr.metrics().dupPer1000()).isZero();
    assertThat(hfr.metrics().scr()).isGreaterThan(fixed.metrics().scr());
    assertThat(results.comparisons()).singleElement().satisfies(c -> assertThat(c.comparisons()).hasSize(1));
    assertThat(new LiveMarkdown(results).render()).contains("## Live benchmark", "FixedRetry3", "HFR");
  }

  @Test
  void twoSeedsGiveIntervalsAndEscalationsPayTheirCostAndDelay() throws Exception {
    LivePlan plan = new LivePlan(5, 2, List.of(new LiveScenario("20 %", 0.20, 0)), List.of(Strategy.HFR, Strategy.HFR_NO_VERIFIER), 24, 24,
        1000, 100, 10.0, 2.0, new VerifierNoise(5, 0.9, 0.98, 0.02));
    LiveResults results;
    try (Progress silent = Progress.silent()) {
      results = new LiveBenchmark(plan, silent).run();
    }
    assertThat(results.cells()).hasSize(4);
    LiveResults.Summary hfr = results.summaries().stream().filter(s -> s.strategy() == Strategy.HFR).findFirst().orElseThrow();
    assertThat(hfr.seeds()).isEqualTo(2);
    assertThat(hfr.pooled().tasks()).isEqualTo(48);
    LiveResults.Interval sr = hfr.acrossSeeds().get("SR %");
    assertThat(sr.low()).isLessThanOrEqualTo(sr.mean());
    assertThat(sr.high()).isGreaterThanOrEqualTo(sr.mean());
    if (hfr.pooled().esc() > 0) {
      // an escalated task waits the human's 10 s on top of its own latency
      assertThat(hfr.pooled().p99()).isGreaterThanOrEqualTo(10.0);
    }
    assertThat(VerifierNoise.current()).as("the benchmark leaves the verifiers perfect again").isEqualTo(VerifierNoise.PERFECT);
  }
}
