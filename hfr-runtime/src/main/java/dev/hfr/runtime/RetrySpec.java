package dev.hfr.runtime;

import dev.hfr.annotations.Fault;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * The retry settings of one tool method, as declared by {@code @Retry} (or its defaults).
 *
 * @param maxAttempts total attempts of one logical step, the first included
 * @param baseDelayMs the backoff's base delay d0
 * @param maxDelayMs the backoff's cap
 * @param retryOn the fault classes that may be retried
 */
public record RetrySpec(int maxAttempts, long baseDelayMs, long maxDelayMs, Set<Fault> retryOn) {

  /** The defaults of {@code @Retry}: 4 attempts, 200 ms base, 2 s cap, on T1, T2 and T3. */
  public static final RetrySpec DEFAULT = of(4, 200, 2000, Fault.T1, Fault.T2, Fault.T3);

  /** A single attempt: what an R3 method gets. */
  public static final RetrySpec NONE = of(1, 0, 0);

  public RetrySpec {
    if (maxAttempts < 1) {
      throw new IllegalArgumentException("maxAttempts must be at least 1, was " + maxAttempts);
    }
    if (baseDelayMs < 0 || maxDelayMs < 0) {
      throw new IllegalArgumentException("delays must not be negative: base " + baseDelayMs + " ms, max " + maxDelayMs + " ms");
    }
    if (baseDelayMs > maxDelayMs) {
      throw new IllegalArgumentException("baseDelayMs (" + baseDelayMs + ") must not exceed maxDelayMs (" + maxDelayMs + ")");
    }
    Objects.requireNonNull(retryOn, "retryOn");
    if (retryOn.contains(Fault.T7) || retryOn.contains(Fault.T8)) {
      throw new IllegalArgumentException("T7 and T8 are never retried; remove them from retryOn " + retryOn);
    }
    retryOn = Collections.unmodifiableSet(retryOn.isEmpty() ? EnumSet.noneOf(Fault.class) : EnumSet.copyOf(retryOn));
  }

  /** Retry settings retrying the given classes. */
  public static RetrySpec of(int maxAttempts, long baseDelayMs, long maxDelayMs, Fault... retryOn) {
    EnumSet<Fault> on = EnumSet.noneOf(Fault.class);
    Collections.addAll(on, retryOn);
    return new RetrySpec(maxAttempts, baseDelayMs, maxDelayMs, on);
  }
}
