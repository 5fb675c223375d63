package dev.hfr.bench.live;

import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
import java.util.List;
import java.util.Map;

/**
 * What a live run measured. Duplicates, wrong answers and cost come from the services' own records.
 *
 * @param plan what was run
 * @param cells one per (scenario, seed, strategy)
 * @param summaries one per (scenario, strategy): the cells of its seeds, with intervals across seeds
 * @param comparisons per scenario, HFR against every other strategy on the same tasks and fault schedules
 *     (all seeds pooled)
 * @param wallSeconds how long the live run took
 */
public record LiveResults(LivePlan plan, List<Cell> cells, List<Summary> summaries, List<ScenarioComparison> comparisons,
    double wallSeconds) {

  /**
   * One scenario, seed and strategy.
   *
   * @param requests requests each service received
   * @param duplicates duplicate side effects each write service counted
   * @param breakerStops attempts the engine did not make because the target's circuit breaker was open
   *     (counted from its decision events)
   */
  public record Cell(String scenario, long seed, Strategy strategy, RunMetrics metrics, Map<String, Integer> requests,
      Map<String, Integer> duplicates, int breakerStops, double seconds) {}

  /**
   * One scenario and strategy across its seeds: per metric the mean over seeds and its 95 % interval
   * (Student's t over the seeds' values), and the metrics of all its tasks pooled.
   */
  public record Summary(String scenario, Strategy strategy, int seeds, Map<String, Interval> acrossSeeds, RunMetrics pooled,
      Map<String, Integer> duplicates, int breakerStops) {}

  /** A mean over seeds with its 95 % interval. */
  public record Interval(double mean, double low, double high) {}

  /** The paired comparisons of one scenario. */
  public record ScenarioComparison(String scenario, List<PairedComparison> comparisons) {}
}
