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
    double[][] samples = new double[7][resamples];
    SplittableRandom rnd = new SplittableRandom(seed);
    for (int r = 0; r < resamples; r++) {
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
        int i = rnd.nextInt(n);
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
      samples[0][r] = 100.0 * s / n;
      samples[1][r] = 100.0 * c / n;
      samples[2][r] = 100.0 * f / n;
      samples[3][r] = (ca - cb) / n;
      samples[4][r] = cpsRelative(ca, oa, cb, ob);
      samples[5][r] = l / n;
      samples[6][r] = 1000.0 * d / n;
    }
    double[] point = new double[7];
    long s = 0;
    long c = 0;
    long f = 0;
    double ca = 0;
    double cb = 0;
    long oa = 0;
    long ob = 0;
    double l = 0;
    long d = 0;
    for (int i = 0; i < n; i++) {
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
    point[0] = 100.0 * s / n;
    point[1] = 100.0 * c / n;
    point[2] = 100.0 * f / n;
    point[3] = (ca - cb) / n;
    point[4] = cpsRelative(ca, oa, cb, ob);
    point[5] = l / n;
    point[6] = 1000.0 * d / n;
    Estimate[] e = new Estimate[7];
    for (int m = 0; m < 7; m++) {
      e[m] = interval(point[m], samples[m]);
    }
    return new PairedComparison(nameA, nameB, n, resamples, e[0], e[1], e[2], e[3], e[4], e[5], e[6]);
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
