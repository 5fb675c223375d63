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
      s.execute("TRUNCATE hfr_ledger");
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
      assertThat(rs.next()).isTrue();
      assertThat(rs.getInt(1)).isEqualTo(1);
      assertThat(rs.next()).as("one row per applied version").isFalse();
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
