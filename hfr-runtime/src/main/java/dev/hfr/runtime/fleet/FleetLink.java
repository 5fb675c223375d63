package dev.hfr.runtime.fleet;

import dev.hfr.runtime.time.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * The fleet's connection to PostgreSQL, and whether it is usable: a failed statement puts the worker on its
 * local share (logged once per outage, counted in {@code harness.fleet.fallbacks}) and the database is not
 * asked again before {@code retryMillis} have passed, so an outage costs a call at most one failed attempt
 * per interval. Thread-safe.
 */
final class FleetLink {

  /** One piece of work on a connection. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection connection) throws SQLException;
  }

  private static final System.Logger LOG = System.getLogger("dev.hfr.fleet");

  private final DataSource dataSource;
  private final Clock clock;
  private final long retryMillis;
  private final String worker;
  private final Counter fallbacks;
  private volatile boolean down;
  private volatile long retryAtMillis;
  /** Whether the fleet's tables are known to exist: checked (and created) on the first connection after an outage. */
  private volatile boolean schemaReady;
  private final Counter rejoins;

  FleetLink(DataSource dataSource, Clock clock, long retryMillis, String worker, MeterRegistry registry) {
    this.dataSource = dataSource;
    this.clock = clock;
    this.retryMillis = retryMillis;
    this.worker = worker;
    this.fallbacks = Counter.builder("harness.fleet.fallbacks")
        .description("Times this worker lost the fleet's database and fell back to its local share")
        .register(registry);
    this.rejoins = Counter.builder("harness.fleet.rejoins")
        .description("Times this worker reached the fleet's database again after losing it (or starting without it)")
        .register(registry);
    Gauge.builder("harness.fleet.connected", this, l -> l.down ? 0 : 1)
        .description("1 while this worker coordinates through the fleet's database, 0 on its local share")
        .register(registry);
  }

  /** Whether the fleet's database may be asked now (it is up, or the retry interval of an outage has passed). */
  boolean usable() {
    return !down || clock.epochMillis() - retryAtMillis >= 0;
  }

  boolean connected() {
    return !down;
  }

  /** Runs {@code work} on a connection; {@code null} when the database is down or failed now. */
  <T> T call(SqlWork<T> work) {
    if (!usable()) {
      return null;
    }
    try (Connection connection = dataSource.getConnection()) {
      ensureSchema(connection);
      T result = work.run(connection);
      reached();
      return result;
    } catch (SQLException | RuntimeException e) {
      failed(e);
      return null;
    }
  }

  /**
   * Creates the fleet's tables on {@code connection} unless they are known to exist: at the first connection,
   * and again after every outage (the database may have come back empty).
   */
  void ensureSchema(Connection connection) throws SQLException {
    if (!schemaReady) {
      FleetSchema.create(connection);
      schemaReady = true;
    }
  }

  /** A statement reached the database: the worker is (back) in the fleet. */
  void reached() {
    if (down) {
      down = false;
      rejoins.increment();
      LOG.log(System.Logger.Level.INFO, "HFR fleet: worker " + worker + " reached the database again and"
          + " shares the fleet's budgets and breakers once more");
    }
  }

  /** Marks the database down after {@code failure} (a statement, or the listening connection, failed). */
  void failed(Exception failure) {
    retryAtMillis = clock.epochMillis() + retryMillis;
    schemaReady = false;
    if (!down) {
      down = true;
      fallbacks.increment();
      LOG.log(System.Logger.Level.WARNING, "HFR fleet: worker " + worker + " cannot reach the database ("
          + failure + "); it uses its local share of each tenant's retry budget and its own breakers until"
          + " the database answers again (retried every " + retryMillis + " ms)");
    }
  }
}
