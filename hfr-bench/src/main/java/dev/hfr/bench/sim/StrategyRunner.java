package dev.hfr.bench.sim;

import dev.hfr.bench.metrics.TaskTable;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.function.LongConsumer;

/**
 * Runs the tasks of one seed under one strategy and returns their results in task order. The
 * benchmark's implementation is {@link EngineRunner}: the real engine, configured per strategy.
 */
@FunctionalInterface
public interface StrategyRunner {

  /**
   * Runs tasks {@code 0 .. tasks - 1} of the workload drawn with {@code seed}.
   *
   * @param tasksDone told after every batch of finished tasks, for the progress line
   */
  TaskTable run(Strategy strategy, WorkloadParameters params, long seed, int tasks, LongConsumer tasksDone);

  /**
   * This runner, also noting the engine's decisions on the write step of every task that ends with a
   * duplicate side effect (slower: the engine then builds every decision event); by default it notes
   * nothing more.
   */
  default StrategyRunner tracingDuplicates() {
    return this;
  }
}
