package dev.hfr.bench.sim;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.hfr.bench.strategy.Strategy;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One modelling assumption changed against the headline's workload, run to measure how much it moves
 * the headline figures: the same seeds and tasks as the headline (so every difference is paired, task by
 * task, through common random numbers), with one thing different.
 *
 * @param name what is assumed instead, in a few words
 * @param seeds the seeds it runs (the first seeds of the headline's)
 * @param tasks tasks per seed (the headline's)
 * @param strategies the strategies it runs
 * @param change how the headline's workload becomes this variant's
 */
public record AssumptionVariant(String name, List<Long> seeds, int tasks, List<Strategy> strategies,
    @JsonIgnore UnaryOperator<dev.hfr.bench.workload.WorkloadParameters> change) {

  public AssumptionVariant {
    seeds = List.copyOf(seeds);
    strategies = List.copyOf(strategies);
    if (seeds.isEmpty() || tasks < 1 || strategies.isEmpty()) {
      throw new IllegalArgumentException("a variant needs seeds, tasks and strategies: " + name);
    }
  }
}
