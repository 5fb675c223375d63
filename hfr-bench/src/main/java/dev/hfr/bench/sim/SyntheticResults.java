package dev.hfr.bench.sim;

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
 */
public record SyntheticResults(
    SyntheticPlan plan,
    List<StrategyResult> main,
    List<PairedComparison> comparisons,
    List<SweepPoint> faultSweep,
    List<IncidentPoint> incidentSweep) {

  /** One strategy of the main comparison. */
  public record StrategyResult(Strategy strategy, List<RunMetrics> perSeed, Map<Metric, MeanSd> summary, RunMetrics pooled) {}

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
