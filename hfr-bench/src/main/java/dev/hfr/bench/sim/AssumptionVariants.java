package dev.hfr.bench.sim;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WriteModel;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The modelling assumptions the report measures, one changed at a time against the headline's workload:
 * the stricter write model at the headline's full size (it is the headline's sensitivity row), then each
 * of HFR-Bench's other own assumptions (the ones the paper does not state) on fewer seeds.
 */
final class AssumptionVariants {

  /** The name of the strict write model's variant; the report shows it beside the headline. */
  static final String STRICT_WRITES = "strict write model: a rejected write had committed, writes have no ladder";

  private AssumptionVariants() {}

  static List<AssumptionVariant> standard(List<Long> strictSeeds, List<Long> fewSeeds, int tasks) {
    List<Strategy> some = SyntheticPlan.VARIANT_STRATEGIES;
    return List.of(
        new AssumptionVariant(STRICT_WRITES, strictSeeds, tasks, List.of(Strategy.values()),
            p -> p.withWriteModel(WriteModel.STRICT)),
        new AssumptionVariant("a rejected write had committed (writes keep their ladder)", fewSeeds, tasks, some,
            p -> p.withWriteModel(new WriteModel(true, p.writeModel().writeLadder(), p.writeModel().writesReconcilable()))),
        new AssumptionVariant("writes have no ladder (a rejected write did not commit)", fewSeeds, tasks, some,
            p -> p.withWriteModel(new WriteModel(p.writeModel().rejectedWritesCommit(), false, p.writeModel().writesReconcilable()))),
        new AssumptionVariant("writes can be neither reconciled nor compensated (a rejected write is escalated)", fewSeeds, tasks,
            some, p -> p.withWriteModel(new WriteModel(p.writeModel().rejectedWritesCommit(), p.writeModel().writeLadder(), false))),
        new AssumptionVariant("a timed-out write never committed (instead of half the time)", fewSeeds, tasks, some,
            p -> p.withWriteCommitsBeforeTimeout(0)),
        new AssumptionVariant("a timed-out write always committed", fewSeeds, tasks, some,
            p -> p.withWriteCommitsBeforeTimeout(1)),
        new AssumptionVariant("every failed attempt takes the tier's full latency (not 2x for timeouts, 0.25x for others)",
            fewSeeds, tasks, some, p -> p.withFailureLatencies(1, 1)),
        new AssumptionVariant("429s carry no Retry-After (instead of 1 s)", fewSeeds, tasks, some,
            p -> p.withRetryAfterSeconds(0)),
        new AssumptionVariant("degraded results lose no success (no penalty per rung)", fewSeeds, tasks, some,
            p -> p.withDegradedQualityPenalty(noPenalty())),
        new AssumptionVariant("each step kind's fault classes equally likely", fewSeeds, tasks, some,
            p -> p.withFaultMixes(even(p.modelFaultMix()), even(p.toolFaultMix()))));
  }

  private static Map<Criticality.Level, Double> noPenalty() {
    Map<Criticality.Level, Double> none = new EnumMap<>(Criticality.Level.class);
    for (Criticality.Level l : Criticality.Level.values()) {
      none.put(l, 0.0);
    }
    return none;
  }

  private static Map<Fault, Double> even(Map<Fault, Double> mix) {
    Map<Fault, Double> even = new EnumMap<>(Fault.class);
    for (Fault f : mix.keySet()) {
      even.put(f, 1.0 / mix.size());
    }
    return even;
  }
}
