package dev.hfr.runtime.internal.retry;

import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.internal.time.Nanos;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff with full jitter (paper §4.3): {@code d_k = U(0, min(dmax, d0·2^(k-1)))}, and for a
 * rate limit {@code max(d_k, Retry-After)}.
 *
 * <p>The cap is applied <em>before</em> the draw, so retries that reach the cap still spread uniformly
 * over {@code [0, dmax]} instead of all waking at {@code dmax} together. {@code d0·2^(k-1)} is computed
 * without overflow for any k.
 */
public final class FullJitterBackoff implements Backoff {

  /** The one instance; the class has no state. */
  public static final FullJitterBackoff INSTANCE = new FullJitterBackoff();

  /** Prefer {@link #INSTANCE}; public so it can be created by frameworks. */
  public FullJitterBackoff() {}

  @Override
  public long delayNanos(int retryNumber, RetrySpec spec, long retryAfterMillis, RandomGenerator rnd) {
    Objects.requireNonNull(rnd, "rnd");
    long ceiling = ceilingNanos(retryNumber, spec);
    long drawn = ceiling == 0 ? 0 : ceiling == Long.MAX_VALUE ? rnd.nextLong(0, Long.MAX_VALUE) : rnd.nextLong(0, ceiling + 1);
    return retryAfterMillis < 0 ? drawn : Math.max(drawn, Nanos.fromMillis(retryAfterMillis));
  }

  @Override
  public boolean draws(int retryNumber, RetrySpec spec) {
    return ceilingNanos(retryNumber, spec) != 0;
  }

  /**
   * The upper end of the jitter interval for retry {@code k}: {@code min(dmax, d0·2^(k-1))} in
   * nanoseconds.
   */
  public static long ceilingNanos(int retryNumber, RetrySpec spec) {
    Objects.requireNonNull(spec, "spec");
    if (retryNumber < 1) {
      throw new IllegalArgumentException("retryNumber must be at least 1 (the first retry), was " + retryNumber);
    }
    long base = Nanos.fromMillis(spec.baseDelayMs());
    long cap = Nanos.fromMillis(spec.maxDelayMs());
    int shift = retryNumber - 1;
    // base << shift exceeds cap exactly when base > cap >> shift; shifts of 63 or more always exceed
    // (for a non-zero base), so the product is never formed when it could overflow.
    if (base == 0) {
      return 0;
    }
    if (shift >= Long.SIZE - 1 || base > (cap >> shift)) {
      return cap;
    }
    return base << shift;
  }
}
