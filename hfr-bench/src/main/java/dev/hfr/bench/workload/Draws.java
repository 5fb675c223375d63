package dev.hfr.bench.workload;

/**
 * Counter-based random numbers: every draw is a pure function of the run's seed and the coordinates of
 * the event it decides (task, step, tier, attempt, purpose). So the same seed gives the same numbers in
 * any order and on any number of threads, and every strategy meets the same fault on the same attempt of
 * the same task — the paired design of the paper's §6.6.5 ("common random numbers").
 *
 * <p>The mixing function is SplitMix64's finaliser, applied once per coordinate.
 */
public final class Draws {

  private Draws() {}

  /** A uniform double in [0, 1) decided by {@code seed} and the given coordinates. */
  public static double uniform(long seed, long a, long b, long c, long d, long purpose) {
    long h = mix(seed ^ 0x9E3779B97F4A7C15L);
    h = mix(h ^ a);
    h = mix(h + b * 0xBF58476D1CE4E5B9L);
    h = mix(h + c * 0x94D049BB133111EBL);
    h = mix(h + d * 0x9E3779B97F4A7C15L);
    h = mix(h ^ (purpose * 0xD6E8FEB86659FD93L));
    return (h >>> 11) * 0x1.0p-53;
  }

  /** A 64-bit value decided by {@code seed} and {@code index}: the seed of a derived stream. */
  public static long derive(long seed, long index) {
    return mix(mix(seed ^ 0x5851F42D4C957F2DL) + index * 0x9E3779B97F4A7C15L);
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }

  /** Picks an index of {@code weights} (which sum to 1) with the uniform draw {@code u}. */
  public static int pick(double[] weights, double u) {
    double acc = 0;
    for (int i = 0; i < weights.length; i++) {
      acc += weights[i];
      if (u < acc) {
        return i;
      }
    }
    return weights.length - 1;
  }
}
