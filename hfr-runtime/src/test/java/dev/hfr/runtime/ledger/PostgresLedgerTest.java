package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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
        assertThat(indexes).containsExactly("hfr_ledger_pending", "hfr_ledger_pkey", "hfr_ledger_settled");
      }
    }
  }

  /** The schema an HFR of schema version 3 created (migrations 1 to 3 as they shipped), empty. */
  private static final String VERSION_3_SCHEMA = """
      CREATE TABLE hfr_ledger_schema (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now(), description TEXT NOT NULL);
      INSERT INTO hfr_ledger_schema (version, description) VALUES (1, 'create hfr_ledger'),
        (2, 'task ids on records; hfr_task checkpoints'), (3, 'hfr_ledger.state as the enum hfr_ledger_state');
      CREATE TYPE hfr_ledger_state AS ENUM ('PREPARED', 'COMMITTED', 'FAILED', 'UNKNOWN',
                                            'RECONCILED_COMMITTED', 'RECONCILED_ABSENT', 'COMPENSATED');
      CREATE TABLE hfr_ledger (
        tenant TEXT NOT NULL, key TEXT NOT NULL, tool TEXT NOT NULL, args_hash TEXT NOT NULL, state hfr_ledger_state NOT NULL,
        attempts INTEGER NOT NULL, result_hash TEXT, fencing_token BIGINT NOT NULL, lease_owner TEXT,
        lease_expires_at_ms BIGINT NOT NULL, created_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL, task_id TEXT,
        PRIMARY KEY (tenant, key));
      CREATE INDEX hfr_ledger_task ON hfr_ledger (tenant, task_id) WHERE task_id IS NOT NULL;
      CREATE INDEX hfr_ledger_pending ON hfr_ledger (created_at_ms) WHERE state IN ('PREPARED', 'UNKNOWN');
      CREATE INDEX hfr_ledger_settled ON hfr_ledger (updated_at_ms) WHERE state NOT IN ('PREPARED', 'UNKNOWN');
      CREATE TABLE hfr_task (
        tenant TEXT NOT NULL, task_id TEXT NOT NULL, phase TEXT NOT NULL CHECK (phase IN ('STARTED', 'ESCALATED', 'CLOSED')),
        spec TEXT NOT NULL, evidence TEXT, owner TEXT NOT NULL, started_at_ms BIGINT NOT NULL, updated_at_ms BIGINT NOT NULL,
        PRIMARY KEY (tenant, task_id));
      CREATE INDEX hfr_task_open ON hfr_task (started_at_ms) WHERE phase <> 'CLOSED';
      """;

  @Test
  @DisplayName("a version-3 database is migrated to the current version in place: its records stay readable, the pending "
      + "ones are listed, the settled ones expire, and its outcomes become HOT updates")
  void version3SchemaMigrates() throws Exception {
    long old = START_MILLIS - Duration.ofDays(30).toMillis();
    long recent = START_MILLIS - Duration.ofMinutes(5).toMillis();
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP TABLE hfr_ledger, hfr_task, hfr_ledger_schema; DROP TYPE hfr_ledger_state");
      s.execute(VERSION_3_SCHEMA);
      s.execute("INSERT INTO hfr_ledger VALUES "
          + "('acme', 'k-expired', 'Orders.create', 'h1', 'COMMITTED', 1, 'r1', 1, NULL, 0, " + old + ", " + old + ", 'task-1'), "
          + "('acme', 'k-committed', 'Orders.create', 'h2', 'COMMITTED', 1, 'r2', 1, NULL, 0, " + recent + ", " + recent + ", 'task-1'), "
          + "('acme', 'k-unknown', 'Orders.create', 'h3', 'UNKNOWN', 1, NULL, 2, NULL, 0, " + old + ", " + old + ", 'task-1'), "
          + "('acme', 'k-failed', 'Orders.create', 'h4', 'FAILED', 1, NULL, 1, NULL, 0, " + recent + ", " + recent + ", 'task-2'), "
          + "('acme', 'k-leased', 'Orders.create', 'h5', 'PREPARED', 0, NULL, 1, 'w1', " + (START_MILLIS + 60_000) + ", "
          + START_MILLIS + ", " + START_MILLIS + ", 'task-2')");
    }

    PostgresLedger migrated = PostgresLedger.create(dataSource, options());

    assertThat(migrated.schemaVersion()).isEqualTo(PostgresLedger.SCHEMA_VERSION);
    assertThat(migrated.find(TENANT, "k-expired")).as("older than the retention: expired on open").isEmpty();
    assertThat(migrated.find(TENANT, "k-committed")).hasValueSatisfying(r -> {
      assertThat(r.state()).isEqualTo(LedgerState.COMMITTED);
      assertThat(r.resultHash()).isEqualTo("r2");
      assertThat(r.taskId()).isEqualTo("task-1");
    });
    assertThat(migrated.pending()).extracting(LedgerRecord::key, LedgerRecord::state).containsExactly(
        tuple("k-unknown", LedgerState.UNKNOWN), tuple("k-leased", LedgerState.PREPARED));
    assertThat(flags()).containsExactly(
        "k-committed=false", "k-failed=false", "k-leased=true", "k-unknown=true");
    assertThat(migrated.taskRecords(TENANT, "task-2")).extracting(LedgerRecord::key).containsExactly("k-failed", "k-leased");
    assertThat(migrated.acquireLease(TENANT, "k-leased", "w2", Duration.ofSeconds(20))).as("the live lease survived").isEmpty();
    migrated.transition(TENANT, "k-leased", LedgerState.PREPARED, LedgerState.COMMITTED, "r5", 1);
    migrated.transition(TENANT, "k-failed", LedgerState.FAILED, LedgerState.PREPARED, null, 1);
    assertThat(migrated.pending()).extracting(LedgerRecord::key).containsExactly("k-unknown", "k-failed");
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      try (ResultSet rs = s.executeQuery("SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'hfr_ledger' ORDER BY indexname")) {
        List<String> indexes = new ArrayList<>();
        while (rs.next()) {
          indexes.add(rs.getString(1));
          assertThat(rs.getString(2)).as("no index names a column an outcome changes").doesNotContain("state", "updated_at_ms", "attempts", "lease");
        }
        assertThat(indexes).containsExactly("hfr_ledger_pending", "hfr_ledger_pkey", "hfr_ledger_settled");
      }
      try (ResultSet rs = s.executeQuery("SELECT reloptions FROM pg_class WHERE relname = 'hfr_ledger'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).contains("fillfactor=90");
      }
    }
    assertThat(PostgresLedger.create(dataSource, options()).schemaVersion()).as("opening again migrates nothing")
        .isEqualTo(PostgresLedger.SCHEMA_VERSION);
  }

  @Test
  @DisplayName("a version-4 database is migrated to version 5: the index of a task's records goes, and a task's records "
      + "and its unfinished ones are listed as before")
  void version4SchemaMigrates() throws Exception {
    ledger.close();
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      // Version 4 is version 5 with the index of a task's records, which migration 2 created.
      s.execute("CREATE INDEX hfr_ledger_task ON hfr_ledger (tenant, task_id) WHERE task_id IS NOT NULL");
      s.execute("DELETE FROM hfr_ledger_schema WHERE version = 5");
      s.execute("INSERT INTO hfr_ledger (tenant, key, tool, args_hash, state, attempts, result_hash, fencing_token, lease_owner, "
          + "lease_expires_at_ms, created_at_ms, updated_at_ms, task_id, may_be_pending) VALUES "
          + "('acme', 'k-committed', 'Orders.create', 'h1', 'COMMITTED', 1, 'r1', 1, NULL, 0, " + (START_MILLIS - 4) + ", " + START_MILLIS + ", 'task-1', false), "
          + "('acme', 'k-unknown', 'Orders.create', 'h2', 'UNKNOWN', 1, NULL, 1, NULL, 0, " + (START_MILLIS - 3) + ", " + START_MILLIS + ", 'task-1', true), "
          + "('acme', 'k-prepared', 'Orders.create', 'h3', 'PREPARED', 0, NULL, 1, 'w1', 0, " + (START_MILLIS - 2) + ", " + START_MILLIS + ", 'task-1', true), "
          + "('acme', 'k-other', 'Orders.create', 'h4', 'PREPARED', 0, NULL, 1, 'w1', 0, " + (START_MILLIS - 1) + ", " + START_MILLIS + ", 'task-2', true)");
    }

    PostgresLedger migrated = PostgresLedger.create(dataSource, options());
    ledger = migrated;

    assertThat(migrated.schemaVersion()).isEqualTo(5);
    assertThat(migrated.taskRecords(TENANT, "task-1")).extracting(LedgerRecord::key)
        .containsExactly("k-committed", "k-unknown", "k-prepared");
    assertThat(migrated.unfinishedTaskRecords(TENANT, "task-1")).extracting(LedgerRecord::key, LedgerRecord::state)
        .containsExactly(tuple("k-unknown", LedgerState.UNKNOWN), tuple("k-prepared", LedgerState.PREPARED));
    Prepared fresh = migrated.prepareIfAbsent(TENANT, "task-1", "k-new", "Orders.create", "h5", "w2", Duration.ofSeconds(20));
    assertThat(migrated.unfinishedTaskRecords(TENANT, "task-1")).extracting(LedgerRecord::key)
        .containsExactly("k-unknown", "k-prepared", "k-new");
    migrated.transition(TENANT, "k-new", LedgerState.PREPARED, LedgerState.COMMITTED, "r5", fresh.lease().fencingToken());
    assertThat(migrated.unfinishedTaskRecords(TENANT, "task-1")).extracting(LedgerRecord::key).containsExactly("k-unknown", "k-prepared");
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT indexname FROM pg_indexes WHERE tablename = 'hfr_ledger' ORDER BY indexname")) {
      List<String> indexes = new ArrayList<>();
      while (rs.next()) {
        indexes.add(rs.getString(1));
      }
      assertThat(indexes).containsExactly("hfr_ledger_pending", "hfr_ledger_pkey", "hfr_ledger_settled");
    }
  }

  @Test
  @DisplayName("a prepare that finds the retention's delete due hands it to the ledger's sweep thread: it does not wait "
      + "for the delete, even while a row it deletes is locked")
  void retentionDeleteRunsOffTheCallersTime() throws Exception {
    openInstead(options().withRetention(Duration.ofHours(1)));
    ledger.prepare(TENANT, "k-old", "Orders.create", args(1));
    ledger.transition(TENANT, "k-old", LedgerState.PREPARED, LedgerState.COMMITTED, null, 0);
    ((PostgresLedger) ledger).sweepSettled(); // settled and swept: what the retention's delete removes
    time.advance(Duration.ofMinutes(65).toNanos());
    ExecutorService caller = Executors.newSingleThreadExecutor();
    try (Connection holder = dataSource.getConnection()) {
      // Another transaction holds the old record's row: a delete of it waits until that transaction ends.
      holder.setAutoCommit(false);
      try (Statement s = holder.createStatement()) {
        s.executeQuery("SELECT key FROM hfr_ledger WHERE key = 'k-old' FOR UPDATE").close();
      }
      Future<LedgerRecord> prepare = caller.submit(() -> ledger.prepare(TENANT, "k-new", "Orders.create", args(2)));

      assertThat(prepare.get(10, TimeUnit.SECONDS).state()).as("the prepare returned").isEqualTo(LedgerState.PREPARED);
      assertThat(ledger.find(TENANT, "k-old")).as("not deleted while its row is held").isPresent();
      holder.rollback();
    } finally {
      caller.shutdownNow();
    }
    // The delete skipped the held row rather than wait for it: the next retention sweep takes it.
    time.advance(Duration.ofMinutes(3).toNanos());
    ledger.prepare(TENANT, "k-newer", "Orders.create", args(3));
    long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
    while (ledger.find(TENANT, "k-old").isPresent() && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(ledger.find(TENANT, "k-old")).as("deleted by the next sweep, on the sweep thread").isEmpty();
    assertThat(ledger.find(TENANT, "k-new")).isPresent();
  }

  @Test
  @DisplayName("the retention's delete removes more than one batch of expired records, a thousand per transaction")
  void retentionDeletesInBatches() throws Exception {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("INSERT INTO hfr_ledger (tenant, key, tool, args_hash, state, attempts, fencing_token, lease_expires_at_ms, "
          + "created_at_ms, updated_at_ms, may_be_pending) SELECT 'acme', 'k' || i, 'Orders.create', 'h', 'COMMITTED', 1, 1, 0, "
          + START_MILLIS + ", " + START_MILLIS + ", true FROM generate_series(1, 2500) i");
    }
    ledger.prepare(TENANT, "k-kept", "Orders.create", args(1));

    assertThat(ledger.expire(Instant.ofEpochMilli(START_MILLIS + 1))).isEqualTo(2500);
    assertThat(ledger.find(TENANT, "k1")).isEmpty();
    assertThat(ledger.find(TENANT, "k-kept")).as("not settled: never expires").isPresent();
  }

  @Test
  @DisplayName("pending() reads the records flagged may_be_pending; the sweep clears the flag of settled records only, "
      + "and a record moved back to PREPARED is flagged again")
  void sweepClearsSettledRecordsOnly() throws Exception {
    PostgresLedger l = (PostgresLedger) ledger;
    l.prepare(TENANT, "k-committed", "Orders.create", args(1));
    l.prepare(TENANT, "k-failed", "Orders.create", args(2));
    l.prepare(TENANT, "k-unknown", "Orders.create", args(3));
    l.prepare(TENANT, "k-prepared", "Orders.create", args(4));
    l.transition(TENANT, "k-committed", LedgerState.PREPARED, LedgerState.COMMITTED, result(1), 0);
    l.transition(TENANT, "k-failed", LedgerState.PREPARED, LedgerState.FAILED, null, 0);
    l.transition(TENANT, "k-unknown", LedgerState.PREPARED, LedgerState.UNKNOWN, null, 0);
    assertThat(flags()).as("an outcome leaves the flag as it is").containsExactly(
        "k-committed=true", "k-failed=true", "k-prepared=true", "k-unknown=true");

    assertThat(l.sweepSettled()).isEqualTo(2);

    assertThat(flags()).containsExactly("k-committed=false", "k-failed=false", "k-prepared=true", "k-unknown=true");
    assertThat(l.pending()).extracting(LedgerRecord::key).containsExactly("k-prepared", "k-unknown");
    l.transition(TENANT, "k-failed", LedgerState.FAILED, LedgerState.PREPARED, null, 0);
    assertThat(flags()).contains("k-failed=true");
    assertThat(l.pending()).extracting(LedgerRecord::key).containsExactlyInAnyOrder("k-failed", "k-prepared", "k-unknown");
    assertThat(l.sweepSettled()).as("nothing settled since").isZero();
  }

  @Test
  @DisplayName("an outcome of a record this ledger inserted reads nothing back, and returns the row as stored")
  void outcomeOfAnInsertedRecordIsTheStoredRow() {
    Prepared p = ledger.prepareIfAbsent(TENANT, "task-7", "k-1", "Orders.create", args(1), "worker-1", Duration.ofSeconds(20));
    LedgerRecord committed = ledger.transition(TENANT, "k-1", LedgerState.PREPARED, LedgerState.COMMITTED, result(1), p.lease().fencingToken());
    assertThat(committed).isEqualTo(ledger.find(TENANT, "k-1").orElseThrow());
    assertThat(committed.attempts()).isEqualTo(1);
    assertThat(committed.taskId()).isEqualTo("task-7");
    assertThat(ledger.currentLease(TENANT, "k-1")).as("the commit ended the lease").isEmpty();

    ledger.prepare(TENANT, "k-2", "Orders.create", args(2));
    LedgerRecord unknown = ledger.transition(TENANT, "k-2", LedgerState.PREPARED, LedgerState.UNKNOWN, null, 0);
    assertThat(unknown).isEqualTo(ledger.find(TENANT, "k-2").orElseThrow());
    assertThat(ledger.pending()).extracting(LedgerRecord::key).containsExactly("k-2");
  }

  @Test
  @DisplayName("an outcome of a record another JVM moved, leased or made again since this one inserted it is decided on the row as it is")
  void outcomeOfARecordChangedElsewhereReadsTheRow() {
    try (PostgresLedger other = PostgresLedger.create(dataSource, options())) {
      // moved: another attempt failed and the record was prepared again (attempts 1, still PREPARED)
      ledger.prepare(TENANT, "k-moved", "Orders.create", args(1));
      other.transition(TENANT, "k-moved", LedgerState.PREPARED, LedgerState.FAILED, null, 0);
      other.transition(TENANT, "k-moved", LedgerState.FAILED, LedgerState.PREPARED, null, 0);
      LedgerRecord moved = ledger.transition(TENANT, "k-moved", LedgerState.PREPARED, LedgerState.COMMITTED, result(1), 0);
      assertThat(moved.attempts()).as("the failed attempt counts").isEqualTo(2);
      assertThat(moved).isEqualTo(ledger.find(TENANT, "k-moved").orElseThrow());

      // leased: the inserter's lease ran out and another owner took the key
      Prepared p = ledger.prepareIfAbsent(TENANT, "k-leased", "Orders.create", args(2), "worker-1", Duration.ofSeconds(1));
      time.advance(Duration.ofSeconds(2).toNanos());
      Lease taken = other.acquireLease(TENANT, "k-leased", "worker-2", Duration.ofSeconds(20)).orElseThrow();
      assertThatThrownBy(() -> ledger.transition(TENANT, "k-leased", LedgerState.PREPARED, LedgerState.COMMITTED, result(2), p.lease().fencingToken()))
          .isInstanceOf(StaleFencingTokenException.class);
      assertThat(other.transition(TENANT, "k-leased", LedgerState.PREPARED, LedgerState.COMMITTED, result(2), taken.fencingToken()).fencingToken())
          .isEqualTo(taken.fencingToken());

      // made again: committed, expired and prepared anew (another task, a later time) by the other JVM
      ledger.prepare(TENANT, "k-again", "Orders.create", args(3));
      other.transition(TENANT, "k-again", LedgerState.PREPARED, LedgerState.COMMITTED, result(3), 0);
      time.advance(Duration.ofSeconds(5).toNanos());
      other.expire(Instant.ofEpochMilli(time.epochMillis()));
      assertThat(ledger.find(TENANT, "k-again")).isEmpty();
      time.advance(Duration.ofSeconds(5).toNanos());
      other.prepare(TENANT, "k-again", "Orders.create", args(3)); // the same first version but for its time
      LedgerRecord again = ledger.transition(TENANT, "k-again", LedgerState.PREPARED, LedgerState.COMMITTED, result(3), 0);
      assertThat(again).isEqualTo(ledger.find(TENANT, "k-again").orElseThrow());
      assertThat(again.createdAt()).isEqualTo(Instant.ofEpochMilli(time.epochMillis()));
    }
  }

  @Test
  @DisplayName("the sweep starts by itself, off the caller's time, on a prepare once its interval has passed")
  void sweepRunsOnAPrepareAfterItsInterval() throws Exception {
    ledger.prepare(TENANT, "k-1", "Orders.create", args(1));
    ledger.transition(TENANT, "k-1", LedgerState.PREPARED, LedgerState.COMMITTED, result(1), 0);
    time.advance(PostgresLedger.SETTLED_SWEEP_INTERVAL.minusMillis(1).toNanos());
    ledger.prepare(TENANT, "k-2", "Orders.create", args(2));
    assertThat(flags()).containsExactly("k-1=true", "k-2=true");

    time.advance(Duration.ofMillis(1).toNanos());
    ledger.prepare(TENANT, "k-3", "Orders.create", args(3));

    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (flags().contains("k-1=true") && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(flags()).containsExactly("k-1=false", "k-2=true", "k-3=true");
  }

  @Test
  @DisplayName("on a large table pending() and the retention's delete read their indexes, not the table")
  void pendingAndExpiryStayBoundedOnALargeTable() throws Exception {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      // 200,000 settled records and 50 pending ones, as the ledger would have left them after its sweeps
      s.execute("INSERT INTO hfr_ledger (tenant, key, tool, args_hash, state, attempts, fencing_token, lease_expires_at_ms, "
          + "created_at_ms, updated_at_ms, may_be_pending) SELECT 'acme', 'k' || i, 'Orders.create', 'h', "
          + "CASE WHEN i % 4000 = 0 THEN 'UNKNOWN' ELSE 'COMMITTED' END::hfr_ledger_state, 1, 1, 0, " + START_MILLIS + " + i, "
          + START_MILLIS + " + i, i % 4000 = 0 FROM generate_series(1, 200000) i");
      s.execute("ANALYZE hfr_ledger");
      String pendingPlan = plan(s, "SELECT * FROM hfr_ledger WHERE may_be_pending AND state IN ('PREPARED', 'UNKNOWN') "
          + "ORDER BY created_at_ms, tenant, key");
      assertThat(pendingPlan).contains("hfr_ledger_pending").doesNotContain("Seq Scan");
      assertThat(sharedBuffers(pendingPlan)).as("pages read for 50 pending records among 200,000").isLessThan(200);
      String expiryPlan = plan(s, PostgresLedger.EXPIRE_SETTLED.replace("?", String.valueOf(START_MILLIS + 100)));
      assertThat(expiryPlan).contains("hfr_ledger_settled").doesNotContain("Seq Scan");
    }
    assertThat(ledger.pending()).hasSize(50);
  }

  @Test
  @DisplayName("an attempt's outcome rewrites no index: PostgreSQL counts every commit, failure and unknown outcome as a HOT update")
  void outcomesAreHotUpdates() throws Exception {
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
      s.execute("DROP DATABASE IF EXISTS hot_updates");
      s.execute("CREATE DATABASE hot_updates"); // its own table statistics, which no other test's connection touches
    }
    String url = postgres.getJdbcUrl("postgres", "hot_updates");
    try (HikariDataSource pool = pool(url, 2)) {
      PostgresLedger l = PostgresLedger.create(pool, options());
      for (int i = 0; i < 10; i++) {
        Lease lease = l.prepareIfAbsent(TENANT, "task-1", "c" + i, "Orders.create", args(i), "w1", Duration.ofSeconds(20)).lease();
        l.transition(TENANT, "c" + i, LedgerState.PREPARED, LedgerState.COMMITTED, result(i), lease.fencingToken());
        l.prepare(TENANT, "f" + i, "Orders.create", args(i));
        l.transition(TENANT, "f" + i, LedgerState.PREPARED, LedgerState.FAILED, null, 0);
        l.prepare(TENANT, "u" + i, "Orders.create", args(i));
        l.transition(TENANT, "u" + i, LedgerState.PREPARED, LedgerState.UNKNOWN, null, 0);
      }
    } // closing the pool ends its server processes, which then report their counts
    try (HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      long updates = 0;
      long hot = 0;
      while (updates < 30 && System.nanoTime() < deadline) {
        s.execute("SELECT pg_stat_clear_snapshot()");
        try (ResultSet rs = s.executeQuery("SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables WHERE relname = 'hfr_ledger'")) {
          rs.next();
          updates = rs.getLong(1);
          hot = rs.getLong(2);
        }
        Thread.sleep(50);
      }
      assertThat(updates).as("updates the server counted").isEqualTo(30);
      assertThat(hot).as("of which HOT").isEqualTo(30);
    }
  }

  /** Each record's key and {@code may_be_pending} flag, by key. */
  private static List<String> flags() throws Exception {
    List<String> out = new ArrayList<>();
    try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT key, may_be_pending FROM hfr_ledger ORDER BY key")) {
      while (rs.next()) {
        out.add(rs.getString(1) + "=" + rs.getBoolean(2));
      }
    }
    return out;
  }

  private static String plan(Statement s, String sql) throws Exception {
    StringBuilder plan = new StringBuilder();
    s.execute("BEGIN"); // EXPLAIN ANALYZE runs the statement: a delete is rolled back
    try (ResultSet rs = s.executeQuery("EXPLAIN (ANALYZE, BUFFERS) " + sql)) {
      while (rs.next()) {
        plan.append(rs.getString(1)).append('\n');
      }
    } finally {
      s.execute("ROLLBACK");
    }
    return plan.toString();
  }

  /** The pages the plan's top node read or found in the buffer cache. */
  private static long sharedBuffers(String plan) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("Buffers: shared hit=(\\d+)(?: read=(\\d+))?").matcher(plan);
    assertThat(m.find()).as(plan).isTrue();
    return Long.parseLong(m.group(1)) + (m.group(2) == null ? 0 : Long.parseLong(m.group(2)));
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
