package dev.hfr.runtime.internal.retry;

import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.internal.time.Nanos;
import java.util.random.RandomGenerator;

/**
 * Exponential backoff without jitter ({@code retry.jitter: none}): {@code d_k = min(dmax, d0·2^(k-1))},
 * the bound itself, and for a rate limit {@code max(d_k, Retry-After)}. Callers that retry together wake
 * together: prefer {@link FullJitterBackoff} unless a test or a single client needs exact delays.
 */
public final class ExponentialBackoff implements Backoff {

  /** The one instance; the class has no state. */
  public static final ExponentialBackoff INSTANCE = new ExponentialBackoff();

  private ExponentialBackoff() {}

  @Override
  public long delayNanos(int retryNumber, RetrySpec spec, long retryAfterMillis, RandomGenerator rnd) {
    long bound = FullJitterBackoff.ceilingNanos(retryNumber, spec);
    return retryAfterMillis < 0 ? bound : Math.max(bound, Nanos.fromMillis(retryAfterMillis));
  }
}
