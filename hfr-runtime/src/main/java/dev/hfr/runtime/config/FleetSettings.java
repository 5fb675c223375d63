package dev.hfr.runtime.config;

import java.util.Objects;

/**
 * The {@code hfr.fleet} section (docs/FLEET.md): whether the workers of a fleet share each tenant's retry budget
 * and each target's circuit breaker through PostgreSQL.
 *
 * @param enabled whether this engine joins the fleet (default {@code false}: budgets and breakers of this JVM only)
 * @param jdbcUrl the fleet's database, or {@code null} for the PostgreSQL ledger's own ({@code idempotency.jdbc_url}
 *     or the application's {@code DataSource} given with {@code Hfr.builder().ledgerDataSource(...)})
 * @param expectedWorkers how many workers share a budget: while the database is unreachable each worker allows
 *     itself {@code limit / expected_workers} retries per window
 * @param worker this worker's name in the fleet's tables, or {@code null} for the JVM's {@code pid@host}
 * @param syncIntervalMs how often the worker reads the fleet's breakers besides notifications: the bound on how
 *     late a breaker state arrives
 * @param batchSize the most retry tokens one lease takes from the fleet's bucket (a lease takes a fiftieth of the
 *     limit, at least 1, at most this)
 * @param pool the pool opened on {@code jdbcUrl}, or on the ledger's URL when the fleet shares it
 */
public record FleetSettings(boolean enabled, String jdbcUrl, int expectedWorkers, String worker, long syncIntervalMs,
    int batchSize, PoolSettings pool) {

  /** One JVM, no fleet. */
  public static final FleetSettings DEFAULTS = new FleetSettings(false, null, 1, null, 500, 20, PoolSettings.FLEET_DEFAULTS);

  public FleetSettings {
    if (expectedWorkers < 1) {
      throw new IllegalArgumentException("expectedWorkers must be >= 1, was " + expectedWorkers);
    }
    if (syncIntervalMs < 1 || batchSize < 1) {
      throw new IllegalArgumentException("syncIntervalMs and batchSize must be >= 1");
    }
    Objects.requireNonNull(pool, "pool");
  }
}
