package dev.hfr.bench.strategy;

import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.budget.TaskLimits;

/**
 * Each strategy of the benchmark as a set of the real engine's feature switches — the one place that says
 * what NoRetry, FixedRetry3, RetryOnly, DegradeOnly, HFR and the ablations are.
 *
 * <p>The baselines are the engine's presets ({@link HfrFeatures#noRetry()} and so on) with result
 * verification switched on: in the paper only "HFR − verifier" lacks the verifier (its Table 12 has
 * RetryOnly well above HFR − verifier, which a verifier-less RetryOnly could not be). The baselines also
 * have nobody to escalate to ({@link #escalates}): a failure they cannot handle ends the task, as the
 * paper's ESC of 0 for them says. The ablations switch one feature of {@link HfrFeatures#all()} off, except
 * HFR − budget, which keeps every feature and lifts the per-task retry budget alone ({@link #taskRetryBudget}).
 */
public final class StrategyConfigurations {

  /** FixedRetry3: three retries after the first attempt (§6.2). */
  private static final int FIXED_RETRIES = 3;

  private StrategyConfigurations() {}

  /** The engine features of {@code strategy}. */
  public static HfrFeatures features(Strategy strategy) {
    return switch (strategy) {
      case NO_RETRY -> HfrFeatures.noRetry().toBuilder().verification(true).build();
      case FIXED_RETRY3 -> HfrFeatures.fixedRetry(FIXED_RETRIES).toBuilder().verification(true).build();
      case RETRY_ONLY -> HfrFeatures.retryOnly().toBuilder().verification(true).build();
      case DEGRADE_ONLY -> HfrFeatures.degradeOnly().toBuilder().verification(true).build();
      case HFR -> HfrFeatures.all();
      case HFR_NO_VERIFIER -> HfrFeatures.all().toBuilder().verification(false).build();
      case HFR_NO_IDEMPOTENCY -> HfrFeatures.all().toBuilder().idempotency(false).build();
      // the paper's ablation removes the per-task retry budget only (taskRetryBudget); the tenant budget stays
      case HFR_NO_BUDGET -> HfrFeatures.all();
      case HFR_NO_BREAKER -> HfrFeatures.all().toBuilder().circuitBreaker(false).build();
    };
  }

  /**
   * The per-task retry budget of {@code strategy} when the workload's is {@code perTask}: none for
   * HFR − budget ("remove the per-task retry budget; the per-step limit stays", §6.2), the workload's for
   * every other strategy (those whose features switch budgets off ignore it).
   */
  public static int taskRetryBudget(Strategy strategy, int perTask) {
    return strategy == Strategy.HFR_NO_BUDGET ? TaskLimits.UNLIMITED : perTask;
  }

  /** Whether the strategy has a human (or upstream system) to escalate to: the HFR variants do, the baselines do not. */
  public static boolean escalates(Strategy strategy) {
    return switch (strategy) {
      case NO_RETRY, FIXED_RETRY3, RETRY_ONLY, DEGRADE_ONLY -> false;
      default -> true;
    };
  }
}
