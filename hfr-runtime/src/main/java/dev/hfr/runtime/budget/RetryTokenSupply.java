package dev.hfr.runtime.budget;

import dev.hfr.runtime.internal.budget.TokenBucket;
import java.time.Duration;

/**
 * Makes the {@link RetryTokens} of a tenant the first time it retries. The default gives each tenant its own
 * {@link TokenBucket} in this JVM; a fleet backend gives each tenant a share of one bucket in PostgreSQL.
 */
@FunctionalInterface
public interface RetryTokenSupply {

  /**
   * The tokens of {@code tenant}.
   *
   * @param retriesPerWindow the tenant's limit for the whole deployment (§5.2 {@code max_retries_per_tenant_per_min})
   * @param window the window the limit counts over
   */
  RetryTokens tokensFor(String tenant, int retriesPerWindow, Duration window);
}
