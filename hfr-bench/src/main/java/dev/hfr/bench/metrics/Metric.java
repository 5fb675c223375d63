package dev.hfr.bench.metrics;

import java.util.function.ToDoubleFunction;

/** The metrics of {@link RunMetrics} by name, for summaries across seeds and for the reports. */
public enum Metric {
  SR("SR", true, RunMetrics::sr),
  CSR("CSR", true, RunMetrics::csr),
  SCR("SCR", true, RunMetrics::scr),
  CPS("CPS", false, RunMetrics::cps),
  MEAN_COST("mean cost", false, RunMetrics::meanCost),
  DUP_PER_1000("DUP/1000", false, RunMetrics::dupPer1000),
  ESC("ESC", true, RunMetrics::esc),
  DEG("DEG", true, RunMetrics::deg),
  RETRY_AMPLIFICATION("RA", false, RunMetrics::retryAmplification),
  MEAN_ATTEMPTS("attempts/task", false, RunMetrics::meanAttempts),
  P50("p50 (s)", false, RunMetrics::p50),
  P95("p95 (s)", false, RunMetrics::p95),
  P99("p99 (s)", false, RunMetrics::p99),
  P50_NON_ESCALATED("p50 non-esc (s)", false, RunMetrics::p50NonEscalated),
  P95_NON_ESCALATED("p95 non-esc (s)", false, RunMetrics::p95NonEscalated),
  P99_NON_ESCALATED("p99 non-esc (s)", false, RunMetrics::p99NonEscalated),
  MEAN_RECOVERY("recovery (s)", false, RunMetrics::meanRecoverySeconds),
  P95_RECOVERY("p95 recovery (s)", false, RunMetrics::p95RecoverySeconds),
  FALSE_ACCEPT("false accept", true, RunMetrics::falseAcceptRate);

  private final String label;
  private final boolean rate;
  private final ToDoubleFunction<RunMetrics> value;

  Metric(String label, boolean rate, ToDoubleFunction<RunMetrics> value) {
    this.label = label;
    this.rate = rate;
    this.value = value;
  }

  /** The column label used in reports. */
  public String label() {
    return label;
  }

  /** Whether the metric is a fraction reported in percent. */
  public boolean isRate() {
    return rate;
  }

  public double of(RunMetrics metrics) {
    return value.applyAsDouble(metrics);
  }
}
