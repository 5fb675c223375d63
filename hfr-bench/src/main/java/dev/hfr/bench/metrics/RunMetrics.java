package dev.hfr.bench.metrics;

import org.HdrHistogram.Histogram;

/**
 * The metric vector of §3.4 / §6.6.4 over one table of tasks. Rates are fractions in [0, 1]; latencies
 * are seconds; {@code dupPer1000} is duplicates per thousand tasks.
 *
 * @param tasks tasks measured
 * @param sr task success rate
 * @param csr clean success rate (success without duplicate side effects)
 * @param scr safe completion rate ((success or escalation) without duplicate side effects)
 * @param cps cost per successful task (total cost / successes; infinite without successes)
 * @param meanCost mean cost per task
 * @param dupPer1000 duplicate side effects per thousand tasks
 * @param esc escalation rate
 * @param deg degradation rate (tasks with at least one degraded step)
 * @param retryAmplification attempts / logical steps started
 * @param meanAttempts attempts per task
 * @param p50 median end-to-end latency
 * @param p95 95th percentile latency
 * @param p99 99th percentile latency
 * @param p50NonEscalated median latency of tasks that were not escalated
 * @param p95NonEscalated 95th percentile latency of tasks that were not escalated
 * @param p99NonEscalated 99th percentile latency of tasks that were not escalated
 * @param meanRecoverySeconds mean time from the first failure to recovery or escalation, over tasks that recovered
 * @param p95RecoverySeconds its 95th percentile
 * @param falseAcceptRate tasks the harness accepted as done that were not / tasks it accepted as done
 */
public record RunMetrics(
    int tasks,
    double sr,
    double csr,
    double scr,
    double cps,
    double meanCost,
    double dupPer1000,
    double esc,
    double deg,
    double retryAmplification,
    double meanAttempts,
    double p50,
    double p95,
    double p99,
    double p50NonEscalated,
    double p95NonEscalated,
    double p99NonEscalated,
    double meanRecoverySeconds,
    double p95RecoverySeconds,
    double falseAcceptRate) {

  /** Latency histograms hold milliseconds up to one day with three significant digits. */
  private static final long HIGHEST_MILLIS = 86_400_000L;

  /** Computes the metrics of {@code table}. */
  public static RunMetrics of(TaskTable table) {
    int n = table.size();
    if (n == 0) {
      throw new IllegalArgumentException("no tasks to measure");
    }
    Histogram total = new Histogram(HIGHEST_MILLIS, 3);
    Histogram nonEscalated = new Histogram(HIGHEST_MILLIS, 3);
    Histogram recovery = new Histogram(HIGHEST_MILLIS, 3);
    long success = 0;
    long clean = 0;
    long safe = 0;
    long escalated = 0;
    long degraded = 0;
    long duplicates = 0;
    long attempts = 0;
    long steps = 0;
    long accepted = 0;
    long falseAccepted = 0;
    double cost = 0;
    double recoverySum = 0;
    long recovered = 0;
    for (int i = 0; i < n; i++) {
      boolean ok = table.success(i);
      boolean esc = table.escalated(i);
      success += ok ? 1 : 0;
      clean += table.cleanSuccess(i) ? 1 : 0;
      safe += table.safeCompletion(i) ? 1 : 0;
      escalated += esc ? 1 : 0;
      degraded += table.degraded(i) ? 1 : 0;
      duplicates += table.duplicates(i);
      attempts += table.attempts(i);
      steps += table.stepsRun(i);
      cost += table.cost(i);
      if (table.accepted(i)) {
        accepted++;
        if (!ok && !esc) {
          falseAccepted++;
        }
      }
      long millis = Math.min(HIGHEST_MILLIS, Math.round(table.latencyNanos(i) / 1e6));
      total.recordValue(millis);
      if (!esc) {
        nonEscalated.recordValue(millis);
      }
      long rec = table.recoveryNanos(i);
      if (rec >= 0) {
        recovered++;
        recoverySum += rec / 1e9;
        recovery.recordValue(Math.min(HIGHEST_MILLIS, Math.round(rec / 1e6)));
      }
    }
    return new RunMetrics(
        n,
        (double) success / n,
        (double) clean / n,
        (double) safe / n,
        success == 0 ? Double.POSITIVE_INFINITY : cost / success,
        cost / n,
        1000.0 * duplicates / n,
        (double) escalated / n,
        (double) degraded / n,
        steps == 0 ? 0 : (double) attempts / steps,
        (double) attempts / n,
        seconds(total, 50),
        seconds(total, 95),
        seconds(total, 99),
        seconds(nonEscalated, 50),
        seconds(nonEscalated, 95),
        seconds(nonEscalated, 99),
        recovered == 0 ? 0 : recoverySum / recovered,
        seconds(recovery, 95),
        accepted == 0 ? 0 : (double) falseAccepted / accepted);
  }

  private static double seconds(Histogram h, double percentile) {
    return h.getTotalCount() == 0 ? 0 : h.getValueAtPercentile(percentile) / 1000.0;
  }
}
