package dev.hfr.bench.live;

import dev.hfr.bench.live.tools.VerifierNoise;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.List;

/**
 * What a live run measures.
 *
 * @param seed the first seed of the fault schedules (the same schedule for every strategy of a scenario)
 * @param seeds how many consecutive seeds from {@code seed} each scenario runs (intervals across seeds)
 * @param scenarios fault rates of Table 16's protocol (5 %, 10 %, 20 %) and a burst-mode scenario
 * @param strategies the strategies compared
 * @param tasksPerCell tasks per (scenario, strategy)
 * @param concurrency tasks in flight at once
 * @param clientTimeoutMillis the tools' request timeout in milliseconds
 * @param bootstrapResamples resamples of the paired bootstrap
 * @param escalationSeconds what a human escalation adds to a task's latency (Table B1; added, not slept)
 * @param escalationCost what a human escalation costs (Table B1)
 * @param verifierNoise how often the verifiers are wrong; its seed is replaced per cell
 */
public record LivePlan(
    long seed,
    int seeds,
    List<LiveScenario> scenarios,
    List<Strategy> strategies,
    int tasksPerCell,
    int concurrency,
    long clientTimeoutMillis,
    int bootstrapResamples,
    double escalationSeconds,
    double escalationCost,
    VerifierNoise verifierNoise) {

  public LivePlan {
    scenarios = List.copyOf(scenarios);
    strategies = List.copyOf(strategies);
    if (tasksPerCell < 1 || concurrency < 1 || clientTimeoutMillis < 1 || seeds < 1) {
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

  private static final List<Strategy> STRATEGIES = List.of(Strategy.NO_RETRY, Strategy.FIXED_RETRY3, Strategy.RETRY_ONLY,
      Strategy.DEGRADE_ONLY, Strategy.HFR, Strategy.HFR_NO_IDEMPOTENCY, Strategy.HFR_NO_VERIFIER, Strategy.HFR_NO_BREAKER);

  /**
   * The default live run: 4 scenarios x 3 fault-schedule seeds x 8 strategies x 100 tasks, 32 at once (a few
   * minutes), with the paper's escalation latency and cost and its verifier error rates (Table B1).
   */
  public static LivePlan standard(long seed) {
    return withPaperRates(seed, 3, 100, 1000);
  }

  /** The quick live run: the same cells with 2 seeds of 32 tasks each. */
  public static LivePlan quick(long seed) {
    return withPaperRates(seed, 2, 32, 300);
  }

  private static LivePlan withPaperRates(long seed, int seeds, int tasks, int resamples) {
    WorkloadParameters p = WorkloadParameters.standard();
    return new LivePlan(seed, seeds, SCENARIOS, STRATEGIES, tasks, 32, 1000, resamples, p.escalationLatencySeconds(),
        p.escalationCost(), new VerifierNoise(seed, p.verifierDetectionSemantic(), p.verifierDetectionTool(), p.verifierFalseAlarm()));
  }

  /** The seeds of the fault schedules. */
  public List<Long> scheduleSeeds() {
    Long[] out = new Long[seeds];
    for (int i = 0; i < seeds; i++) {
      out[i] = seed + i;
    }
    return List.of(out);
  }
}
