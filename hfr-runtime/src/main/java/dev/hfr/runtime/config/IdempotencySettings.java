package dev.hfr.runtime.config;

import java.util.List;
import java.util.Objects;

/**
 * The {@code hfr.idempotency} section (paper §4.5, §5.2).
 *
 * @param enabled whether writes go through the idempotency ledger
 * @param keyFields the fields of the ledger key; always all of tenant, task, step, tool, canonical_args
 * @param ledger which ledger backs it: {@code embedded} (a file, the default), {@code postgres} or {@code memory}
 * @param reconcileTimeoutMs how long one reconcile call may take
 */
public record IdempotencySettings(boolean enabled, List<String> keyFields, String ledger, long reconcileTimeoutMs) {

  /** The fields of the ledger key, in the order the key hashes them. */
  public static final List<String> KEY_FIELDS = List.of("tenant", "task", "step", "tool", "canonical_args");

  /** The ledgers the engine knows. */
  public static final List<String> LEDGERS = List.of("embedded", "postgres", "memory");

  /**
   * The paper's values, except the ledger: the paper's deployment names {@code postgres}; ours defaults to
   * the embedded file ledger, which needs no server.
   */
  public static final IdempotencySettings DEFAULTS = new IdempotencySettings(true, KEY_FIELDS, "embedded", 1500);

  public IdempotencySettings {
    keyFields = List.copyOf(keyFields);
    Objects.requireNonNull(ledger, "ledger");
    if (!LEDGERS.contains(ledger)) {
      throw new IllegalArgumentException("ledger must be one of " + LEDGERS + ", was " + ledger);
    }
    if (reconcileTimeoutMs < 1) {
      throw new IllegalArgumentException("reconcileTimeoutMs must be >= 1, was " + reconcileTimeoutMs);
    }
  }
}
