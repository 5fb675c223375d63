package dev.hfr.runtime.internal.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.config.PoolSettings;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.net.Socket;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** Each setting of {@code idempotency.pool} / {@code fleet.pool} bounds what the pool HFR opens on a JDBC URL does. */
@DisplayName("The pool HFR opens on a JDBC URL keeps the bounds its settings give")
class JdbcPoolsTest {

  private static EmbeddedPostgres postgres;
  private static String url;

  @BeforeAll
  static void start() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    url = postgres.getJdbcUrl("postgres", "postgres");
  }

  @AfterAll
  static void stop() throws Exception {
    postgres.close();
  }

  private static long millisToFail(HikariDataSource pool, String sql) {
    long start = System.nanoTime();
    assertThatThrownBy(() -> {
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        s.execute(sql);
      }
    }).isInstanceOf(SQLException.class);
    return (System.nanoTime() - start) / 1_000_000;
  }

  @Test
  @DisplayName("statement_timeout_ms: the server cancels a longer statement (SQLState 57014)")
  void statementTimeout() throws Exception {
    try (HikariDataSource pool = JdbcPools.open(url, new PoolSettings(2, 1_000, 0, 300), "t")) {
      try (Connection c = pool.getConnection(); Statement s = c.createStatement(); ResultSet r = s.executeQuery("SHOW statement_timeout")) {
        r.next();
        assertThat(r.getString(1)).isEqualTo("300ms");
      }
      assertThatThrownBy(() -> {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
          s.execute("SELECT pg_sleep(30)");
        }
      }).isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).isEqualTo("57014"));
    }
  }

  @Test
  @DisplayName("socket_timeout_ms: a statement whose answer does not come gives up on the client side")
  void socketTimeout() {
    try (HikariDataSource pool = JdbcPools.open(url, new PoolSettings(2, 1_000, 1_000, 0), "t")) {
      assertThat(millisToFail(pool, "SELECT pg_sleep(60)")).as("well before the 60 s sleep ends").isLessThan(30_000);
    }
  }

  @Test
  @DisplayName("connect_timeout_ms: a server that accepts and never answers costs a statement this long, not forever")
  void connectTimeout() throws Exception {
    List<Socket> held = new CopyOnWriteArrayList<>();
    try (ServerSocket silent = new ServerSocket(0)) {
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            held.add(silent.accept());
          }
        } catch (Exception closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      String silentUrl = "jdbc:postgresql://127.0.0.1:" + silent.getLocalPort() + "/postgres?user=postgres";
      try (HikariDataSource pool = JdbcPools.open(silentUrl, new PoolSettings(2, 300, 0, 0), "t")) {
        long start = System.nanoTime();
        assertThatThrownBy(pool::getConnection).isInstanceOf(SQLException.class);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(millis).as("bounded by 300 ms plus a busy machine's margin").isBetween(250L, 10_000L);
      }
    } finally {
      for (Socket s : held) {
        s.close();
      }
    }
  }

  @Test
  @DisplayName("max_size: the pool never holds more connections; one more request waits for one to come back")
  void maxSize() throws Exception {
    try (HikariDataSource pool = JdbcPools.open(url, new PoolSettings(1, 300, 0, 0), "hfr-size-test");
        Connection only = pool.getConnection()) {
      assertThatThrownBy(pool::getConnection).isInstanceOf(SQLException.class);
      try (Statement s = only.createStatement();
          ResultSet r = s.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'hfr-size-test'")) {
        r.next();
        assertThat(r.getInt(1)).isEqualTo(1);
      }
    }
  }
}
