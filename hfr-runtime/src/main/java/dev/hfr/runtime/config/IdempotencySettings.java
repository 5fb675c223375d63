package dev.hfr.runtime.config;

import dev.hfr.runtime.ledger.LedgerOptions;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * The {@code hfr.idempotency} section (paper §4.5, §5.2).
 *
 * @param enabled whether writes get ledger records and keys; {@code false} leaves writes unkeyed, but an
 *     ambiguous failure of a write is still reconciled or escalated, never resent blindly
 * @param keyFields the fields of the ledger key; always all of tenant, task, step, tool, canonical_args
 * @param ledger which ledger backs it: {@code embedded} (a file, the default), {@code postgres} or {@code memory}
 * @param reconcileTimeoutMs how long one reconcile call may take
 * @param path the embedded ledger's directory, relative to the working directory unless absolute
 * @param jdbcUrl the PostgreSQL ledger's JDBC URL, or {@code null} when the application supplies a
 *     {@code DataSource} ({@code Hfr.builder().ledgerDataSource(...)})
 * @param pool the pool opened on {@code jdbcUrl} ({@code idempotency.pool})
 * @param retentionHours how long a settled record is kept after its last change, in hours ({@code
 *     idempotency.retention_hours}, default 24); a repeat of the write after that runs again
 */
public record IdempotencySettings(boolean enabled, List<String> keyFields, String ledger, long reconcileTimeoutMs,
    String path, String jdbcUrl, PoolSettings pool, long retentionHours) {

  /** The fields of the ledger key, in the order the key hashes them. */
  public static final List<String> KEY_FIELDS = List.of("tenant", "task", "step", "tool", "canonical_args");

  /** The ledgers the engine knows. */
  public static final List<String> LEDGERS = List.of("embedded", "postgres", "memory");

  /** The embedded ledger's default directory. */
  public static final String DEFAULT_PATH = "hfr-ledger";

  /**
   * The paper's values, except the ledger: the paper's deployment names {@code postgres}; ours defaults to
   * the embedded file ledger, which needs no server.
   */
  public static final IdempotencySettings DEFAULTS =
      new IdempotencySettings(true, KEY_FIELDS, "embedded", 1500, DEFAULT_PATH, null, PoolSettings.LEDGER_DEFAULTS,
          LedgerOptions.DEFAULT_RETENTION.toHours());

  /** The longest retention accepted: ten years. */
  public static final long MAX_RETENTION_HOURS = 87_600;

  /** The ledger's options under these settings: the retention, on {@code clock}. */
  public LedgerOptions ledgerOptions(dev.hfr.runtime.time.Clock clock) {
    return LedgerOptions.defaults().withClock(clock).withRetention(Duration.ofHours(retentionHours));
  }

  public IdempotencySettings {
    keyFields = List.copyOf(keyFields);
    Objects.requireNonNull(ledger, "ledger");
    Objects.requireNonNull(path, "path");
    Objects.requireNonNull(pool, "pool");
    if (!LEDGERS.contains(ledger)) {
      throw new IllegalArgumentException("ledger must be one of " + LEDGERS + ", was " + ledger);
    }
    if (retentionHours < 1 || retentionHours > MAX_RETENTION_HOURS) {
      throw new IllegalArgumentException("retentionHours must be 1.." + MAX_RETENTION_HOURS + ", was " + retentionHours);
    }
    if (reconcileTimeoutMs < 1) {
      throw new IllegalArgumentException("reconcileTimeoutMs must be >= 1, was " + reconcileTimeoutMs);
    }
  }
}
