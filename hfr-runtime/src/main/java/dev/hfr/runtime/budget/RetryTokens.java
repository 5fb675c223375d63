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
}
