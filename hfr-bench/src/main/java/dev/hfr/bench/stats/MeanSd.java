package dev.hfr.bench.stats;

/**
 * A mean and the sample standard deviation (n - 1) of a few values, e.g. one metric across seeds — the
 * paper's "mean ± sd" of Tables 12 and 13.
 */
public record MeanSd(double mean, double sd, int n) {

  /** The mean and sample standard deviation of {@code values}; the sd of one value is 0. */
  public static MeanSd of(double... values) {
    if (values.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    double sum = 0;
    for (double v : values) {
      sum += v;
    }
    double mean = sum / values.length;
    if (values.length == 1) {
      return new MeanSd(mean, 0, 1);
    }
    double ss = 0;
    for (double v : values) {
      ss += (v - mean) * (v - mean);
    }
    return new MeanSd(mean, Math.sqrt(ss / (values.length - 1)), values.length);
  }
}
