package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("PostgresLedger passes the ledger contract on a real PostgreSQL")
class PostgresLedgerTest extends IdempotencyLedgerContract {

  static EmbeddedPostgres postgres;
  static HikariDataSource dataSource;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    dataSource = pool(postgres.getJdbcUrl("postgres", "postgres"), 8);
  }

  /** A connection pool, as a PostgreSQL ledger runs on in production. */
  static HikariDataSource pool(String jdbcUrl, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setUsername("postgres");
    config.setMaximumPoolSize(size);
    return new HikariDataSource(config);
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (dataSource != null) {
      dataSource.close();
    }
    if (postgres != null) {
      postgres.close();
    }
  }

  @Override
  protected IdempotencyLedger open(LedgerOptions options) throws Exception {
    PostgresLedger ledger = PostgresLedger.create(dataSource, options);
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("TRUNCATE hfr_ledger, hfr_task");
    }
    return ledger;
  }

  @Override
  protected boolean persistent() {
    return true;
  }

  @Override
  protected IdempotencyLedger reopen(IdempotencyLedger old, LedgerOptions options) {
    old.close();
    return PostgresLedger.create(dataSource, options);
  }

  @Override
  protected String storedText() throws Exception {
    StringBuilder rows = new StringBuilder();
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM hfr_ledger")) {
      while (rs.next()) {
        for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
          rows.append(rs.getObject(i)).append('|');
        }
        rows.append('\n');
      }
    }
    return rows.toString();
  }

  @Test
  @DisplayName("the schema is created with a version table, and creating the ledger again (or from many JVMs at once) migrates once")
  void schemaIsVersioned() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<PostgresLedger>> starts = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        Callable<PostgresLedger> start = () -> PostgresLedger.create(dataSource, options());
        starts.add(pool.submit(start));
      }
      for (Future<PostgresLedger> f : starts) {
        assertThat(f.get().schemaVersion()).isEqualTo(PostgresLedger.SCHEMA_VERSION);
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT version, description FROM hfr_ledger_schema ORDER BY version")) {
      for (int v = 1; v <= PostgresLedger.SCHEMA_VERSION; v++) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getInt(1)).isEqualTo(v);
      }
      assertThat(rs.next()).as("one row per applied version").isFalse();
    }
  }

  @Test
  @DisplayName("a version-1 database (no task ids, no checkpoints) is migrated to version 2: its records stay, without a task")
  void version1SchemaMigrates() throws Exception {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE hfr_ledger, hfr_task, hfr_ledger_schema; DROP TYPE hfr_ledger_state");
      // The schema an HFR of schema version 1 created, with one of its records.
      s.execute("""
          CREATE TABLE hfr_ledger_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), description TEXT NOT NULL);
          INSERT INTO hfr_ledger_schema (version, description) VALUES (1, 'create hfr_ledger');
          CREATE TABLE hfr_ledger (
            tenant TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, args_hash TEXT NOT NULL, state TEXT NOT NULL,
            attempts INTEGER NOT NULL, result_hash TEXT, fencing_token BIGINT NOT NULL, lease_owner TEXT,
            lease_expires_at_ms BIGINT NOT NULL, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL,
            PRIMARY KEY (tenant, key));
          INSERT INTO hfr_ledger VALUES ('acme', 'k-old', 'Orders.create', 'h1', 'UNKNOWN', 1, NULL, 3, NULL, 0, 1, 2);
          """);
    }

    PostgresLedger migrated = PostgresLedger.create(dataSource, options());

    assertThat(migrated.schemaVersion()).isEqualTo(PostgresLedger.SCHEMA_VERSION);
    assertThat(migrated.find(TENANT, "k-old")).hasValueSatisfying(r -> {
      assertThat(r.state()).isEqualTo(LedgerState.UNKNOWN);
      assertThat(r.taskId()).isNull();
    });
    migrated.prepareIfAbsent(TENANT, "task-1", "k-new", "Orders.create", "h2", "w1", java.time.Duration.ofSeconds(20));
    assertThat(migrated.taskRecords(TENANT, "task-1")).extracting(LedgerRecord::key).containsExactly("k-new");
  }

  @Test
  @DisplayName("a version-2 database (state as checked text) is migrated to version 3 (state as an enum): its records, "
      + "indexes and queries stay, and the database still refuses a state that does not exist")
  void version2SchemaMigrates() throws Exception {
    long old = START_MILLIS - java.time.Duration.ofDays(30).toMillis();
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE hfr_ledger, hfr_task, hfr_ledger_schema; DROP TYPE hfr_ledger_state");
      // The schema an HFR of schema version 2 created (migrations 1 and 2 as they shipped), with records in
      // each kind of state: settled long ago, pending, and leased by a live holder.
      s.execute("""
          CREATE TABLE hfr_ledger_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), description TEXT NOT NULL);
          INSERT INTO hfr_ledger_schema (version, description) VALUES (1, 'create hfr_ledger'), (2, 'task ids on records; hfr_task checkpoints');
          CREATE TABLE hfr_ledger (
            tenant TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, args_hash TEXT NOT NULL,
            state TEXT NOT NULL CHECK (state IN ('PREPARED', 'COMMITTED', 'FAILED', 'UNKNOWN',
                                                 'RECONCILED_COMMITTED', 'RECONCILED_ABSENT', 'COMPENSATED')),
            attempts INTEGER NOT NULL, result_hash TEXT, fencing_token BIGINT NOT NULL, lease_owner TEXT,
            lease_expires_at_ms BIGINT NOT NULL, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL,
            PRIMARY KEY (tenant, key));
          CREATE INDEX hfr_ledger_pending ON hfr_ledger (created_at_ms) WHERE state IN ('PREPARED', 'UNKNOWN');
          CREATE INDEX hfr_ledger_settled ON hfr_ledger (updated_at_ms) WHERE state NOT IN ('PREPARED', 'UNKNOWN');
          ALTER TABLE hfr_ledger ADD COLUMN task_id TEXT;
          CREATE INDEX hfr_ledger_task ON hfr_ledger (tenant, task_id) WHERE task_id IS NOT NULL;
          CREATE TABLE hfr_task (
            tenant TEXT NOT NULL, task_id TEXT NOT NULL,
            phase TEXT NOT NULL CHECK (phase IN ('STARTED', 'ESCALATED', 'CLOSED')),
            spec TEXT NOT NULL, evidence TEXT, owner TEXT NOT NULL, started_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL,
            PRIMARY KEY (tenant, task_id));
          CREATE INDEX hfr_task_open ON hfr_task (started_at_ms) WHERE phase <> 'CLOSED';
          """);
      s.execute("INSERT INTO hfr_ledger VALUES "
          + "('acme', 'k-settled', 'Orders.create', 'h1', 'COMMITTED', 1, 'r1', 1, NULL, 0, " + old + ", " + old + ", 'task-1'), "
          + "('acme', 'k-unknown', 'Orders.create', 'h2', 'UNKNOWN', 1, NULL, 2, NULL, 0, " + old + ", " + old + ", 'task-1'), "
          + "('acme', 'k-leased', 'Orders.create', 'h3', 'PREPARED', 0, NULL, 1, 'w1', " + (START_MILLIS + 60_000) + ", "
          + START_MILLIS + ", " + START_MILLIS + ", 'task-2')");
    }

    PostgresLedger migrated = PostgresLedger.create(dataSource, options());

    assertThat(migrated.schemaVersion()).isEqualTo(PostgresLedger.SCHEMA_VERSION);
    assertThat(migrated.find(TENANT, "k-settled")).as("older than the retention: expired on open, by the settled index's query")
        .isEmpty();
    assertThat(migrated.pending()).extracting(LedgerRecord::key, LedgerRecord::state).containsExactly(
        org.assertj.core.groups.Tuple.tuple("k-unknown", LedgerState.UNKNOWN), org.assertj.core.groups.Tuple.tuple("k-leased", LedgerState.PREPARED));
    assertThat(migrated.taskRecords(TENANT, "task-1")).extracting(LedgerRecord::key).containsExactly("k-unknown");
    assertThat(migrated.currentLease(TENANT, "k-leased")).hasValueSatisfying(l -> assertThat(l.owner()).isEqualTo("w1"));
    assertThat(migrated.acquireLease(TENANT, "k-leased", "w2", java.time.Duration.ofSeconds(20))).as("the live lease survived").isEmpty();
    LedgerRecord committed = migrated.transition(TENANT, "k-leased", LedgerState.PREPARED, LedgerState.COMMITTED, "r3", 1);
    assertThat(committed.state()).isEqualTo(LedgerState.COMMITTED);
    assertThat(migrated.pending()).extracting(LedgerRecord::key).containsExactly("k-unknown");
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate("UPDATE hfr_ledger SET state = 'SENT' WHERE key = 'k-unknown'"))
          .as("the enum refuses what the CHECK refused").isInstanceOf(java.sql.SQLException.class).hasMessageContaining("hfr_ledger_state");
      try (ResultSet rs = s.executeQuery("SELECT indexname FROM pg_indexes WHERE tablename = 'hfr_ledger' ORDER BY indexname")) {
        List<String> indexes = new ArrayList<>();
        while (rs.next()) {
          indexes.add(rs.getString(1));
        }
        assertThat(indexes).containsExactly("hfr_ledger_pending", "hfr_ledger_pkey", "hfr_ledger_settled", "hfr_ledger_task");
      }
    }
  }

  @Test
  @DisplayName("a database whose schema is newer than this code is refused with a clear error")
  void newerSchemaRefused() throws Exception {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO hfr_ledger_schema (version, description) VALUES (99, 'from the future')");
    }
    try {
      assertThatThrownBy(() -> PostgresLedger.create(dataSource, options()))
          .isInstanceOf(LedgerStorageException.class)
          .hasMessageContaining("version 99");
    } finally {
      try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
        s.execute("DELETE FROM hfr_ledger_schema WHERE version = 99");
      }
    }
  }
}
