package dev.hfr.bench.stats;

/**
 * A point estimate with a 95 % confidence interval.
 *
 * @param point the estimate on the full sample
 * @param low the 2.5th percentile of the bootstrap distribution
 * @param high the 97.5th percentile of the bootstrap distribution
 */
public record Estimate(double point, double low, double high) {

  /** Whether the interval excludes zero: the difference is distinguishable from no difference. */
  public boolean excludesZero() {
    return low > 0 || high < 0;
  }
}
