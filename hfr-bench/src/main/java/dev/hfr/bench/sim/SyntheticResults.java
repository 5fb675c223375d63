package dev.hfr.bench.sim;

import dev.hfr.bench.metrics.Breakdown;
import dev.hfr.bench.metrics.Metric;
import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.stats.MeanSd;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
import java.util.List;
import java.util.Map;

/**
 * Everything a synthetic run measured — and nothing that depends on the machine, so the same seed gives
 * the same results, byte for byte, in JSON.
 *
 * @param plan what was run
 * @param main per strategy: each seed's metrics, their mean and sd, and the metrics of all seeds pooled
 * @param comparisons HFR against every other strategy, paired per task, with bootstrap intervals
 * @param faultSweep per base fault rate: each strategy's metrics
 * @param incidentSweep per provider incident rate: each strategy's mean and sd across seeds
 * @param variants per changed modelling assumption: the strategies' results under it
 * @param noFaults Table A: every strategy without injected faults
 * @param duplicateTrace HFR on the first seed of the main comparison, traced: the write decisions of every
 *     task that ended with a duplicate side effect ({@link Breakdown#duplicatePaths()})
 * @param retryAfterWaits per strategy of the main comparison: how long it waited after a 429 asking for
 *     the workload's Retry-After before its next attempt (measured on the engine, one call)
 */
public record SyntheticResults(
    SyntheticPlan plan,
    List<StrategyResult> main,
    List<PairedComparison> comparisons,
    List<SweepPoint> faultSweep,
    List<IncidentPoint> incidentSweep,
    List<VariantResult> variants,
    List<StrategyResult> noFaults,
    Breakdown duplicateTrace,
    Map<Strategy, Double> retryAfterWaits) {

  /**
   * One strategy of a comparison.
   *
   * @param breakdown why its tasks ended as they did and what its attempts met, all seeds pooled
   * @param latency where its latency went, all seeds pooled
   */
  public record StrategyResult(Strategy strategy, List<RunMetrics> perSeed, Map<Metric, MeanSd> summary, RunMetrics pooled,
      Breakdown breakdown, LatencySplit latency) {}

  /** The results under one changed modelling assumption. */
  public record VariantResult(String name, List<Long> seeds, List<StrategyResult> results) {

    /** The result of {@code strategy}, if it was run. */
    public StrategyResult result(Strategy strategy) {
      for (StrategyResult r : results) {
        if (r.strategy() == strategy) {
          return r;
        }
      }
      return null;
    }
  }

  /** One point of the fault-rate sweep. */
  public record SweepPoint(double faultRate, Map<Strategy, RunMetrics> metrics) {}

  /** One point of the incident sweep. */
  public record IncidentPoint(double providerIncidentRate, double toolIncidentRate, Map<Strategy, Map<Metric, MeanSd>> summary) {}

  /** The main result of {@code strategy}, if it was run. */
  public StrategyResult result(Strategy strategy) {
    for (StrategyResult r : main) {
      if (r.strategy() == strategy) {
        return r;
      }
    }
    return null;
  }
}
