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
 * @param cells one per (scenario, strategy)
 * @param comparisons per scenario, HFR against every other strategy on the same tasks and fault schedule
 * @param wallSeconds how long the live run took
 */
public record LiveResults(LivePlan plan, List<Cell> cells, List<ScenarioComparison> comparisons, double wallSeconds) {

  /**
   * One scenario and strategy.
   *
   * @param requests requests each service received
   * @param duplicates duplicate side effects each write service counted
   * @param breakerStops attempts the engine did not make because the target's circuit breaker was open
   *     (counted from its decision events)
   */
  public record Cell(String scenario, Strategy strategy, RunMetrics metrics, Map<String, Integer> requests,
      Map<String, Integer> duplicates, int breakerStops, double seconds) {}

  /** The paired comparisons of one scenario. */
  public record ScenarioComparison(String scenario, List<PairedComparison> comparisons) {}
}
