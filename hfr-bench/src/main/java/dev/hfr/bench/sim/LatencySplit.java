package dev.hfr.bench.sim;

import dev.hfr.bench.metrics.TaskTable;
import java.util.Arrays;

/**
 * Where a strategy's task latency goes — inside attempts, waiting between them (backoff and Retry-After),
 * and waiting for a human — on average and over the slowest 5 % of tasks, so that a p95 difference
 * between strategies can be traced to its cause.
 *
 * @param meanSeconds mean task latency
 * @param attemptSeconds mean time inside attempts
 * @param waitSeconds mean time waiting between attempts
 * @param escalationSeconds mean time waiting for a human
 * @param p95Seconds the 95th percentile of task latency
 * @param tailSeconds mean latency of the tasks at or above it
 * @param tailAttemptSeconds their mean time inside attempts
 * @param tailWaitSeconds their mean time waiting between attempts
 * @param tailEscalationSeconds their mean time waiting for a human
 * @param tailEscalatedShare the share of them that were escalated
 */
public record LatencySplit(
    double meanSeconds,
    double attemptSeconds,
    double waitSeconds,
    double escalationSeconds,
    double p95Seconds,
    double tailSeconds,
    double tailAttemptSeconds,
    double tailWaitSeconds,
    double tailEscalationSeconds,
    double tailEscalatedShare) {

  /** The split of {@code table}'s tasks (whose attempt times were measured). */
  public static LatencySplit of(TaskTable table) {
    int n = table.size();
    long[] sorted = new long[n];
    for (int i = 0; i < n; i++) {
      sorted[i] = table.latencyNanos(i);
    }
    Arrays.sort(sorted);
    long p95 = sorted[Math.max(0, (int) Math.ceil(0.95 * n) - 1)];
    double[] all = new double[4];
    double[] tail = new double[4];
    int tailCount = 0;
    int tailEscalated = 0;
    for (int i = 0; i < n; i++) {
      long total = table.latencyNanos(i);
      long attempt = Math.max(0, table.attemptNanos(i));
      long escalation = table.escalationNanos(i);
      long wait = Math.max(0, total - attempt - escalation);
      add(all, total, attempt, wait, escalation);
      if (total >= p95) {
        add(tail, total, attempt, wait, escalation);
        tailCount++;
        tailEscalated += table.escalated(i) ? 1 : 0;
      }
    }
    return new LatencySplit(all[0] / n, all[1] / n, all[2] / n, all[3] / n, p95 / 1e9, tail[0] / tailCount,
        tail[1] / tailCount, tail[2] / tailCount, tail[3] / tailCount, (double) tailEscalated / tailCount);
  }

  private static void add(double[] sums, long total, long attempt, long wait, long escalation) {
    sums[0] += total / 1e9;
    sums[1] += attempt / 1e9;
    sums[2] += wait / 1e9;
    sums[3] += escalation / 1e9;
  }
}
