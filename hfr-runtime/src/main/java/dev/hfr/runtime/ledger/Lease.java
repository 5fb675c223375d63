package dev.hfr.runtime.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * The right to act on one ledger key until {@code expiresAt}. Writes carry {@code fencingToken}; a write
 * with an older token than the key's latest lease is refused.
 */
public record Lease(String tenant, String key, String owner, long fencingToken, Instant expiresAt) {
  public Lease {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(expiresAt, "expiresAt");
  }
}
