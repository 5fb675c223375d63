package dev.hfr.runtime.internal.retry;

import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.internal.time.Nanos;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * The same delay before every retry: the spec's base delay, no growth and no jitter. This is the
 * paper's FixedRetry3 baseline (§6.2), kept so the benchmark runs it on the real runtime; production
 * code should use {@link FullJitterBackoff}. A Retry-After, when the caller passes one, still wins.
 */
public final class FixedDelayBackoff implements Backoff {

  /** The one instance; the class has no state. */
  public static final FixedDelayBackoff INSTANCE = new FixedDelayBackoff();

  /** Prefer {@link #INSTANCE}; public so it can be created by frameworks. */
  public FixedDelayBackoff() {}

  @Override
  public long delayNanos(int retryNumber, RetrySpec spec, long retryAfterMillis, RandomGenerator rnd) {
    Objects.requireNonNull(spec, "spec");
    if (retryNumber < 1) {
      throw new IllegalArgumentException("retryNumber must be at least 1 (the first retry), was " + retryNumber);
    }
    long delay = Nanos.fromMillis(spec.baseDelayMs());
    return retryAfterMillis < 0 ? delay : Math.max(delay, Nanos.fromMillis(retryAfterMillis));
  }

  @Override
  public boolean draws(int retryNumber, RetrySpec spec) {
    return false;
  }
}
