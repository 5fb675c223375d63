package dev.hfr.bench.strategy;

/**
 * The recovery strategies HFR-Bench compares (§6.2 and §6.6.3). Each is a configuration of the real
 * runtime — see {@link StrategyConfigurations} — never a separate model of the policy.
 */
public enum Strategy {
  NO_RETRY("NoRetry", "fail at the first failure: no retry, no degradation"),
  FIXED_RETRY3("FixedRetry3", "up to 3 retries with a fixed delay, no classification, no idempotency keys"),
  RETRY_ONLY("RetryOnly", "classified full-jitter retries (up to 3) with idempotency keys, no degradation"),
  DEGRADE_ONLY("DegradeOnly", "no retry: degrade down the ladder at the first failure"),
  HFR("HFR", "the full runtime: classify, retry, reconcile, degrade, verify, budgets, breakers"),
  HFR_NO_VERIFIER("HFR-verifier", "HFR without result verification"),
  HFR_NO_IDEMPOTENCY("HFR-idempotency", "HFR without idempotency keys and the ledger"),
  HFR_NO_BUDGET("HFR-budget", "HFR without the per-task retry budget (the per-step limit stays)"),
  HFR_NO_BREAKER("HFR-circuit-breaker", "HFR without circuit breakers");

  private final String label;
  private final String description;

  Strategy(String label, String description) {
    this.label = label;
    this.description = description;
  }

  /** The name used in reports (the paper's). */
  public String label() {
    return label;
  }

  /** One line on what the strategy does. */
  public String description() {
    return description;
  }
}
