package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Which of PostgresLedger's commits wait for their WAL flush, read off the server's own positions in the
 * write-ahead log: the insert position before a statement, and the flush position after it. A commit that
 * waited for its flush leaves the flush position past where the log ended before the statement; one that
 * did not leaves it where it was — the WAL writer, the only other flusher here, wakes every 10 s. The
 * server is set as a user runs it for durability ({@code synchronous_commit = on}, {@code fsync = on}).
 */
@DisplayName("PostgresLedger: an attempt's outcome commits without waiting for its WAL flush; everything else waits")
class PostgresOutcomeFlushTest {

  static EmbeddedPostgres postgres;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder()
        .setServerConfig("synchronous_commit", "on")
        .setServerConfig("fsync", "on")
        .setServerConfig("wal_writer_delay", "10000ms")
        .setServerConfig("autovacuum", "off")
        .start();
  }

  @AfterAll
  static void stop() throws Exception {
    postgres.close();
  }

  /**
   * One connection, with a session setting of its own that the ledger must leave alone: the pool hands the
   * same connection to every operation, so a setting leaked by one would be seen by the next.
   */
  private static HikariDataSource oneConnection(boolean autoCommit) {
    HikariConfig c = new HikariConfig();
    c.setJdbcUrl(postgres.getJdbcUrl("postgres", "postgres"));
    c.setUsername("postgres");
    c.setMaximumPoolSize(1);
    c.setAutoCommit(autoCommit);
    c.setConnectionInitSql("SET synchronous_commit = local");
    return new HikariDataSource(c);
  }

  @ParameterizedTest(name = "pool connections with auto-commit {0}")
  @ValueSource(booleans = {true, false})
  @DisplayName("prepare, lease and reconciled outcomes wait for the flush; PREPARED → COMMITTED/UNKNOWN does not; the connection keeps its setting")
  void onlyTheMoveOutOfPreparedIsAsynchronous(boolean autoCommit) throws Exception {
    try (HikariDataSource pool = oneConnection(autoCommit); PostgresLedger ledger = PostgresLedger.create(pool)) {
      List<String> seen = new ArrayList<>();
      boolean outcomeLeftUnflushed = false;
      // The WAL writer flushes every 10 s on its own: should it wake inside one measurement, the next is clean.
      for (int attempt = 0; attempt < 3 && !outcomeLeftUnflushed; attempt++) {
        String key = "k-" + autoCommit + "-" + attempt;
        long before = insertLsn();
        Prepared p = ledger.prepareIfAbsent("acme", "task-1", key, "Orders.create", "h", "worker", Duration.ofSeconds(30));
        assertThat(flushLsn()).as("the prepare waited for its flush").isGreaterThan(before);

        before = insertLsn();
        ledger.transition("acme", key, LedgerState.PREPARED, LedgerState.COMMITTED, "r", p.lease().fencingToken());
        long flushAfterOutcome = flushLsn();
        seen.add("attempt " + attempt + ": log ended at " + before + " before the outcome, flushed to " + flushAfterOutcome + " after it");
        outcomeLeftUnflushed = flushAfterOutcome <= before;
        assertThat(stateSeenByAnotherSession(key)).as("the outcome is committed, visible to every session").isEqualTo("COMMITTED");
      }
      assertThat(outcomeLeftUnflushed).as("the move PREPARED → COMMITTED returned before its flush: %s", seen).isTrue();

      // A move out of PREPARED into UNKNOWN is an outcome too; the moves after it wait, and so does a lease.
      long before = insertLsn();
      ledger.prepareIfAbsent("acme", "task-1", "k-unknown-" + autoCommit, "Orders.create", "h", "worker", Duration.ofSeconds(30));
      assertThat(flushLsn()).isGreaterThan(before);
      Lease lease = ledger.acquireLease("acme", "k-unknown-" + autoCommit, "worker", Duration.ofSeconds(30)).orElseThrow();
      before = insertLsn();
      ledger.transition("acme", "k-unknown-" + autoCommit, LedgerState.PREPARED, LedgerState.UNKNOWN, null, lease.fencingToken());
      long unflushed = flushLsn();
      before = insertLsn();
      ledger.transition("acme", "k-unknown-" + autoCommit, LedgerState.UNKNOWN, LedgerState.RECONCILED_COMMITTED, "r", lease.fencingToken());
      assertThat(flushLsn()).as("UNKNOWN → RECONCILED_COMMITTED waited for its flush (and so for the UNKNOWN before it)")
          .isGreaterThan(before).isGreaterThan(unflushed);
      before = insertLsn();
      ledger.acquireLease("acme", "k-unknown-" + autoCommit, "compensator", Duration.ofSeconds(30)).orElseThrow();
      assertThat(flushLsn()).as("a lease grant waited for its flush").isGreaterThan(before);

      try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW synchronous_commit")) {
        rs.next();
        assertThat(rs.getString(1)).as("the borrowed connection's own setting, after every kind of statement").isEqualTo("local");
      }
    }
  }

  private static String stateSeenByAnotherSession(String key) throws Exception {
    try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT state FROM hfr_ledger WHERE key = '" + key + "'")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static long insertLsn() throws Exception {
    return lsn("pg_current_wal_insert_lsn()");
  }

  private static long flushLsn() throws Exception {
    return lsn("pg_current_wal_flush_lsn()");
  }

  /** A WAL position as a byte offset; read on a session of its own, which writes nothing to the log. */
  static long lsn(String function) throws Exception {
    return lsn(postgres.getPostgresDatabase(), function);
  }

  static long lsn(DataSource ds, String function) throws Exception {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT pg_wal_lsn_diff(" + function + ", '0/0')::bigint")) {
      rs.next();
      return rs.getLong(1);
    }
  }
}
