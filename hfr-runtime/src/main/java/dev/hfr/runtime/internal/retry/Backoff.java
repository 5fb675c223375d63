package dev.hfr.runtime.internal.retry;

import dev.hfr.runtime.RetrySpec;
import java.util.random.RandomGenerator;

/**
 * How long to wait before a retry. Implementations are stateless and thread-safe; the randomness comes
 * from the caller, so a benchmark run with a fixed seed is reproducible.
 */
public interface Backoff {

  /**
   * The delay before retry number {@code retryNumber}.
   *
   * @param retryNumber k, the retry about to be made: 1 for the first retry (the second attempt)
   * @param spec the tool's retry settings (base delay d0 and cap dmax)
   * @param retryAfterMillis the server's Retry-After in milliseconds, or a negative value when none was
   *     given; when present the delay is never shorter
   * @param rnd the source of jitter
   * @return the delay in nanoseconds, never negative
   */
  long delayNanos(int retryNumber, RetrySpec spec, long retryAfterMillis, RandomGenerator rnd);

  /**
   * Whether {@link #delayNanos} draws from its random source for this retry. A caller that shares one
   * generator between threads guards it only when it is used (a zero backoff draws nothing).
   */
  default boolean draws(int retryNumber, RetrySpec spec) {
    return true;
  }
}
