package dev.hfr.bench.live;

import dev.hfr.bench.strategy.Strategy;
import java.util.List;

/**
 * What a live run measures.
 *
 * @param seed the seed of the fault schedules (the same schedule for every strategy of a scenario)
 * @param scenarios fault rates of Table 16's protocol (5 %, 10 %, 20 %) and a burst-mode scenario
 * @param strategies the strategies compared
 * @param tasksPerCell tasks per (scenario, strategy)
 * @param concurrency tasks in flight at once
 * @param clientTimeoutMillis the tools' request timeout in milliseconds
 * @param bootstrapResamples resamples of the paired bootstrap
 */
public record LivePlan(
    long seed,
    List<LiveScenario> scenarios,
    List<Strategy> strategies,
    int tasksPerCell,
    int concurrency,
    long clientTimeoutMillis,
    int bootstrapResamples) {

  public LivePlan {
    scenarios = List.copyOf(scenarios);
    strategies = List.copyOf(strategies);
    if (tasksPerCell < 1 || concurrency < 1 || clientTimeoutMillis < 1) {
      throw new IllegalArgumentException("tasksPerCell and concurrency must be positive");
    }
    if (!strategies.contains(Strategy.HFR)) {
      throw new IllegalArgumentException("the live run compares every strategy with HFR, so HFR must be in it");
    }
  }

  private static final List<LiveScenario> SCENARIOS = List.of(
      new LiveScenario("5 %", 0.05, 0),
      new LiveScenario("10 %", 0.10, 0),
      new LiveScenario("20 %", 0.20, 0),
      new LiveScenario("10 % + bursts", 0.10, 0.25));

  private static final List<Strategy> STRATEGIES =
      List.of(Strategy.NO_RETRY, Strategy.FIXED_RETRY3, Strategy.RETRY_ONLY, Strategy.DEGRADE_ONLY, Strategy.HFR, Strategy.HFR_NO_BREAKER);

  /** The default live run: 4 scenarios x 6 strategies x 200 tasks, 32 at once (a minute or two). */
  public static LivePlan standard(long seed) {
    return new LivePlan(seed, SCENARIOS, STRATEGIES, 200, 32, 1000, 1000);
  }

  /** The quick live run: the same cells with 48 tasks each. */
  public static LivePlan quick(long seed) {
    return new LivePlan(seed, SCENARIOS, STRATEGIES, 48, 32, 1000, 300);
  }
}
