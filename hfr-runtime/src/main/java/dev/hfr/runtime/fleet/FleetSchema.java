package dev.hfr.runtime.fleet;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/** The two tables of the fleet, created if absent (under an advisory lock, as several workers start at once). */
final class FleetSchema {

  /** Any constant: the advisory lock that serialises the workers' schema creation. */
  private static final long SCHEMA_LOCK = 0x4846_5246_4C45_4554L;

  private FleetSchema() {}

  static void create(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try (Statement s = c.createStatement()) {
      s.execute("SELECT pg_advisory_xact_lock(" + SCHEMA_LOCK + ")");
      // granted: tokens handed out in the window; last_grant: the size of the latest lease, returned to its taker
      s.execute("""
          CREATE TABLE IF NOT EXISTS hfr_fleet_budget (
            tenant       text    NOT NULL,
            window_start bigint  NOT NULL,
            granted      integer NOT NULL,
            last_grant   integer NOT NULL,
            PRIMARY KEY (tenant, window_start))""");
      s.execute("""
          CREATE TABLE IF NOT EXISTS hfr_fleet_breaker (
            target      text   PRIMARY KEY,
            state       text   NOT NULL CHECK (state IN ('OPEN', 'PROBING', 'CLOSED')),
            open_until  bigint NOT NULL,
            probe_owner text,
            probe_until bigint NOT NULL,
            updated_by  text   NOT NULL,
            updated_at  bigint NOT NULL)""");
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }
}
