package dev.hfr.runtime.config;

/**
 * The connection pool HFR opens on a JDBC URL ({@code idempotency.pool}, {@code fleet.pool}): a HikariCP pool.
 * A {@code DataSource} the application gives is used as it is, and these settings do not apply to it.
 *
 * @param maxSize the most connections the pool holds (the fleet holds one of them for {@code LISTEN})
 * @param connectTimeoutMs how long a statement waits for a connection, and a new connection for the server to
 *     answer (at least 250, HikariCP's floor); this bounds what a call pays while the database is away
 * @param socketTimeoutMs how long a statement waits for the server's answer before the connection is given up
 *     (0: no limit)
 * @param statementTimeoutMs the server's {@code statement_timeout} for HFR's statements (0: the server's own)
 */
public record PoolSettings(int maxSize, long connectTimeoutMs, long socketTimeoutMs, long statementTimeoutMs) {

  /**
   * The ledger's pool: 10 connections, 1 s to connect; statements unbounded (a schema migration of a large
   * table may take minutes).
   */
  public static final PoolSettings LEDGER_DEFAULTS = new PoolSettings(10, 1_000, 0, 0);

  /** The fleet's pool: 4 connections, 1 s to connect, 5 s per answer, 2 s per statement (its statements are tiny). */
  public static final PoolSettings FLEET_DEFAULTS = new PoolSettings(4, 1_000, 5_000, 2_000);

  public PoolSettings {
    if (maxSize < 1) {
      throw new IllegalArgumentException("maxSize must be >= 1, was " + maxSize);
    }
    if (connectTimeoutMs < 250) {
      throw new IllegalArgumentException("connectTimeoutMs must be >= 250, was " + connectTimeoutMs);
    }
    if (socketTimeoutMs < 0 || statementTimeoutMs < 0) {
      throw new IllegalArgumentException("timeouts must be >= 0");
    }
  }
}
