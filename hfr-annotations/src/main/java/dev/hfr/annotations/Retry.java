package dev.hfr.annotations;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Retry settings of a method. Delays are full-jitter exponential, {@code U(0, min(maxDelayMs,
 * baseDelayMs·2^(k-1)))}, and never shorter than a rate limit's Retry-After. Retries also stop on the
 * budgets, the deadline, an open circuit breaker, and a repeated fault without new evidence.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Retry {

  /** Total attempts of one logical step, the first included (1 means no retry). */
  int maxAttempts() default 4;

  /** The base delay d0 of the backoff, in milliseconds. */
  long baseDelayMs() default 200;

  /** The cap of the backoff, in milliseconds. */
  long maxDelayMs() default 2000;

  /** The fault classes that may be retried; T7 and T8 never can. */
  Fault[] on() default {Fault.T1, Fault.T2, Fault.T3};
}
