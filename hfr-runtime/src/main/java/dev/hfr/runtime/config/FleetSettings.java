package dev.hfr.runtime.config;

/**
 * The {@code hfr.fleet} section (docs/FLEET.md): whether the workers of a fleet share each tenant's retry budget
 * and each target's circuit breaker through PostgreSQL.
 *
 * @param enabled whether this engine joins the fleet (default {@code false}: budgets and breakers of this JVM only)
 * @param jdbcUrl the fleet's database, or {@code null} for the PostgreSQL ledger's own ({@code idempotency.jdbc_url}
 *     or the application's {@code DataSource} given with {@code Hfr.builder().ledgerDataSource(...)})
 * @param expectedWorkers how many workers share a budget: while the database is unreachable each worker allows
 *     itself {@code limit / expected_workers} retries per window
 */
public record FleetSettings(boolean enabled, String jdbcUrl, int expectedWorkers) {

  /** One JVM, no fleet. */
  public static final FleetSettings DEFAULTS = new FleetSettings(false, null, 1);

  public FleetSettings {
    if (expectedWorkers < 1) {
      throw new IllegalArgumentException("expectedWorkers must be >= 1, was " + expectedWorkers);
    }
  }
}
