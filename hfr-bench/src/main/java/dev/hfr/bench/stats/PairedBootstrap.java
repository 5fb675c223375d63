package dev.hfr.bench.stats;

import dev.hfr.bench.metrics.TaskTable;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The paired bootstrap of §6.6.5: for every task the difference between strategy A and strategy B on
 * that task; tasks are resampled with replacement, and each resample's mean difference (or ratio, for
 * cost per success) is computed; the 2.5th and 97.5th percentiles of those are the 95 % interval.
 * Resampling is seeded, so the intervals are reproducible.
 */
public final class PairedBootstrap {

  /** SR, CSR, SCR (pp), cost, CPS (relative), latency (s), DUP per 1000: the order of PairedComparison. */
  private static final int METRICS = 7;

  private final int resamples;
  private final long seed;

  public PairedBootstrap(int resamples, long seed) {
    if (resamples < 100) {
      throw new IllegalArgumentException("at least 100 resamples are needed for a 95 % interval, got " + resamples);
    }
    this.resamples = resamples;
    this.seed = seed;
  }

  /** Compares {@code a} (named {@code nameA}) with {@code b} task by task. */
  public PairedComparison compare(String nameA, TaskTable a, String nameB, TaskTable b) {
    int n = a.size();
    if (n != b.size() || n == 0) {
      throw new IllegalArgumentException("paired tables must hold the same, non-zero number of tasks: " + n + " vs " + b.size());
    }
    // per-task differences and the parts of the ratio, computed once
    byte[] dSuccess = new byte[n];
    byte[] dClean = new byte[n];
    byte[] dSafe = new byte[n];
    double[] costA = new double[n];
    double[] costB = new double[n];
    byte[] okA = new byte[n];
    byte[] okB = new byte[n];
    double[] dLatency = new double[n];
    int[] dDup = new int[n];
    for (int i = 0; i < n; i++) {
      okA[i] = (byte) (a.success(i) ? 1 : 0);
      okB[i] = (byte) (b.success(i) ? 1 : 0);
      dSuccess[i] = (byte) (okA[i] - okB[i]);
      dClean[i] = (byte) ((a.cleanSuccess(i) ? 1 : 0) - (b.cleanSuccess(i) ? 1 : 0));
      dSafe[i] = (byte) ((a.safeCompletion(i) ? 1 : 0) - (b.safeCompletion(i) ? 1 : 0));
      costA[i] = a.cost(i);
      costB[i] = b.cost(i);
      dLatency[i] = (a.latencyNanos(i) - b.latencyNanos(i)) / 1e9;
      dDup[i] = a.duplicates(i) - b.duplicates(i);
    }
    Differences diff = new Differences(n, dSuccess, dClean, dSafe, costA, costB, okA, okB, dLatency, dDup);
    double[][] samples = new double[METRICS][resamples];
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int r = 0; r < resamples; r++) {
      diff.summarise(rnd, samples, r);
    }
    double[][] point = new double[METRICS][1];
    diff.summarise(null, point, 0);
    Estimate[] e = new Estimate[METRICS];
    for (int m = 0; m < METRICS; m++) {
      e[m] = interval(point[m][0], samples[m]);
    }
    return new PairedComparison(nameA, nameB, n, resamples, e[0], e[1], e[2], e[3], e[4], e[5], e[6]);
  }

  /** The per-task differences of one pair, summarised over all tasks or over a resample of them. */
  private record Differences(int n, byte[] dSuccess, byte[] dClean, byte[] dSafe, double[] costA, double[] costB,
      byte[] okA, byte[] okB, double[] dLatency, int[] dDup) {

    /**
     * Writes the seven metrics into {@code out[m][column]}: over the tasks in order when {@code rnd} is
     * null (the point estimate), else over {@code n} tasks drawn with replacement (one resample).
     */
    void summarise(SplittableRandom rnd, double[][] out, int column) {
      long s = 0;
      long c = 0;
      long f = 0;
      double ca = 0;
      double cb = 0;
      long oa = 0;
      long ob = 0;
      double l = 0;
      long d = 0;
      for (int k = 0; k < n; k++) {
        int i = rnd == null ? k : rnd.nextInt(n);
        s += dSuccess[i];
        c += dClean[i];
        f += dSafe[i];
        ca += costA[i];
        cb += costB[i];
        oa += okA[i];
        ob += okB[i];
        l += dLatency[i];
        d += dDup[i];
      }
      out[0][column] = 100.0 * s / n;
      out[1][column] = 100.0 * c / n;
      out[2][column] = 100.0 * f / n;
      out[3][column] = (ca - cb) / n;
      out[4][column] = cpsRelative(ca, oa, cb, ob);
      out[5][column] = l / n;
      out[6][column] = 1000.0 * d / n;
    }
  }

  /** The relative change of cost per success; NaN when either side has no success. */
  static double cpsRelative(double costA, long successesA, double costB, long successesB) {
    if (successesA == 0 || successesB == 0) {
      return Double.NaN;
    }
    return (costA / successesA) / (costB / successesB) - 1.0;
  }

  /** The percentile interval of {@code samples} around {@code point}. */
  static Estimate interval(double point, double[] samples) {
    double[] sorted = samples.clone();
    Arrays.sort(sorted);
    return new Estimate(point, percentile(sorted, 2.5), percentile(sorted, 97.5));
  }

  /** The {@code p}-th percentile of sorted values, by linear interpolation between closest ranks. */
  static double percentile(double[] sorted, double p) {
    double rank = p / 100.0 * (sorted.length - 1);
    int lo = (int) Math.floor(rank);
    int hi = (int) Math.ceil(rank);
    return sorted[lo] + (rank - lo) * (sorted[hi] - sorted[lo]);
  }
}
