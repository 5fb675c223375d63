package dev.hfr.runtime.budget;

import dev.hfr.runtime.internal.budget.TokenBucket;

/**
 * One tenant's supply of retry tokens: a {@link TokenBucket} in this JVM, or a share of a bucket that a
 * whole fleet of workers draws from ({@code dev.hfr.runtime.fleet}). Thread-safe.
 */
public interface RetryTokens {

  /** Takes one token if one is left now. */
  boolean tryAcquire();

  /** Gives back a token taken by {@link #tryAcquire()} for a retry that was then not made. */
  void refund();

  /** Tokens that could be taken now, as far as this JVM knows. */
  int available();

  /**
   * How long until a token could be taken: 0 when one can now, -1 when this supply cannot tell (the caller
   * then assumes the next refill is a second away at most).
   */
  default long nanosUntilAvailable() {
    return available() > 0 ? 0L : -1L;
  }
}
