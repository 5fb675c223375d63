package dev.hfr.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.ledger.LedgerCorruptedException;
import dev.hfr.runtime.ledger.LedgerLockedException;
import dev.hfr.runtime.ledger.PostgresLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import dev.hfr.runtime.time.VirtualTime;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code idempotency.ledger} (+ {@code path}, {@code jdbc_url}) and the builder's ledger options choose the store. */
@DisplayName("The ledger the engine opens is the one the settings name")
class LedgerSettingsTest {

  private static final ToolDescriptor CREATE = ToolDescriptor.builder("com.acme.Orders", "create", Risk.R2)
      .parameters("sku").reconcile("find").resultType(String.class).build();

  private static HfrConfig config(String idempotency) {
    return HfrConfigLoader.parse("hfr:\n  idempotency:\n" + idempotency.indent(4), "hfr.yaml");
  }

  private static Hfr.Builder builder() {
    return Hfr.builder().decisionSink(DecisionSink.discarding());
  }

  /** One committed write, so the store has something to hold; returns its ledger key. */
  private static String write(Hfr hfr) {
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      hfr.execute(CREATE, OneArgumentCall.of("sku-1", () -> "order-1"));
      assertThat(task.committedWrites()).hasSize(1);
      return task.committedWrites().get(0).ledgerKey();
    }
  }

  @Test
  @DisplayName("ledger: memory — an in-memory ledger, no file written")
  void memory(@TempDir Path dir) {
    try (Hfr hfr = builder().config(config("ledger: memory\npath: " + dir.resolve("never"))).build()) {
      write(hfr);
      assertThat(hfr.ledger()).isInstanceOf(InMemoryLedger.class);
    }
    assertThat(dir.resolve("never")).doesNotExist();
  }

  @Test
  @DisplayName("ledger: embedded with path — the journal is written in that directory")
  void embeddedAtPath(@TempDir Path dir) throws Exception {
    Path ledgerDir = dir.resolve("ledger");
    try (Hfr hfr = builder().config(config("ledger: embedded\npath: " + ledgerDir)).build()) {
      write(hfr);
      assertThat(hfr.ledger()).isInstanceOf(EmbeddedFileLedger.class);
    }
    try (var files = Files.list(ledgerDir)) {
      assertThat(files.map(p -> p.getFileName().toString())).anyMatch(name -> name.contains("journal"));
    }
  }

  @Test
  @DisplayName("retention_hours: a settled record is deleted once that long has passed since its last change, not before")
  void retentionHours(@TempDir Path dir) throws Exception {
    VirtualTime time = new VirtualTime(Instant.parse("2026-12-07T09:00:00Z").toEpochMilli());
    try (Hfr hfr = builder().clock(time).config(config("path: " + dir + "\nretention_hours: 2")).build()) {
      String key = write(hfr);
      time.advance(Duration.ofMinutes(119).toNanos());
      assertThat(deletedWithin(hfr, key, Duration.ofSeconds(1))).as("kept for 2 h").isFalse();

      time.advance(Duration.ofMinutes(10).toNanos());
      assertThat(deletedWithin(hfr, key, Duration.ofSeconds(20))).as("deleted after 2 h, by the ledger's housekeeping").isTrue();
    }
  }

  @Test
  @DisplayName("Hfr.builder().ledgerRetention(...) wins over retention_hours")
  void builderRetention(@TempDir Path dir) throws Exception {
    VirtualTime time = new VirtualTime(Instant.parse("2026-12-07T09:00:00Z").toEpochMilli());
    try (Hfr hfr = builder().clock(time).config(config("path: " + dir + "\nretention_hours: 48")).ledgerRetention(Duration.ofHours(1))
        .build()) {
      String key = write(hfr);
      time.advance(Duration.ofMinutes(70).toNanos());
      assertThat(deletedWithin(hfr, key, Duration.ofSeconds(20))).isTrue();
    }
  }

  /** Whether the record of {@code key} (tenant acme) is gone within {@code wait}: the ledger deletes in the background. */
  private static boolean deletedWithin(Hfr hfr, String key, Duration wait) throws InterruptedException {
    long deadline = System.nanoTime() + wait.toNanos();
    do {
      if (hfr.ledger().find("acme", key).isEmpty()) {
        return true;
      }
      Thread.sleep(20);
    } while (System.nanoTime() < deadline);
    return false;
  }

  @Test
  @DisplayName("Hfr.builder().ledgerPath(dir) wins over the configuration")
  void builderPath(@TempDir Path dir) {
    Path ledgerDir = dir.resolve("mine");
    try (Hfr hfr = builder().config(config("ledger: memory")).ledgerPath(ledgerDir).build()) {
      assertThat(hfr.ledger()).isInstanceOf(EmbeddedFileLedger.class);
    }
    assertThat(ledgerDir).isDirectory();
  }

  @Test
  @DisplayName("a second engine on the same directory is refused with what to do next")
  void lockedLedgerSaysWhatToDo(@TempDir Path dir) {
    try (Hfr first = builder().ledgerPath(dir).build()) {
      assertThat(first.ledger()).isInstanceOf(EmbeddedFileLedger.class);
      assertThatThrownBy(() -> builder().ledgerPath(dir).build())
          .isInstanceOf(LedgerLockedException.class)
          .hasMessageContaining("share it")
          .hasMessageContaining("ledgerPath")
          .hasMessageContaining("idempotency.ledger: memory");
    }
  }

  @Test
  @DisplayName("a ledger whose ledger.db was deleted is refused at build(), naming the file and the way on, and no empty one"
      + " takes its place; after EmbeddedFileLedger.repair the engine opens without the records it held")
  void deletedStoreIsRefused(@TempDir Path dir) throws Exception {
    String key;
    try (Hfr hfr = builder().ledgerPath(dir).build()) {
      key = write(hfr);
    }
    // reopened, the record is replayed from the journal, its holder's lease forgotten: housekeeping moves it
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
      while (ledger.recordsInMemory() > 0 && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(ledger.recordsInMemory()).isZero();
      ledger.compact(); // as housekeeping does once the journal is long: the journal keeps no copy of what moved
    }
    for (String name : new String[] {EmbeddedFileLedger.STORE, EmbeddedFileLedger.STORE + "-wal", EmbeddedFileLedger.STORE + "-shm"}) {
      Files.deleteIfExists(dir.resolve(name));
    }

    assertThatThrownBy(() -> builder().ledgerPath(dir).build())
        .isInstanceOf(LedgerCorruptedException.class)
        .hasMessageContaining(dir.resolve(EmbeddedFileLedger.STORE).toString())
        .hasMessageContaining("backup")
        .hasMessageContaining("EmbeddedFileLedger.repair");
    assertThat(dir.resolve(EmbeddedFileLedger.STORE)).as("nothing created in its place").doesNotExist();

    EmbeddedFileLedger.RepairReport report = EmbeddedFileLedger.repair(dir);
    assertThat(report.damages()).anySatisfy(d -> assertThat(d.reason()).contains(EmbeddedFileLedger.STORE + " is missing"));
    try (Hfr hfr = builder().ledgerPath(dir).build()) {
      assertThat(hfr.ledger().find("acme", key)).as("lost with the file, as the repair reported").isEmpty();
    }
    try (Hfr hfr = builder().ledgerPath(dir).build()) {
      assertThat(hfr.ledger()).as("the new store is marked: later opens go on as usual").isInstanceOf(EmbeddedFileLedger.class);
    }
  }

  @Test
  @DisplayName("ledger: postgres with jdbc_url, and with the application's DataSource — a PostgreSQL ledger")
  void postgres() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String url = pg.getJdbcUrl("postgres", "postgres");
      String key;
      try (Hfr hfr = builder().config(config("ledger: postgres\njdbc_url: \"" + url + "\"")).build()) {
        key = write(hfr);
        assertThat(hfr.ledger()).isInstanceOf(PostgresLedger.class);
      }
      try (Hfr hfr = builder().ledgerDataSource(pg.getPostgresDatabase()).build()) {
        assertThat(hfr.ledger()).isInstanceOf(PostgresLedger.class);
        assertThat(hfr.ledger().find("acme", key)).as("the write made through the URL is in the same database").isPresent();
      }
    }
  }

  @Test
  @DisplayName("pool: the ledger on jdbc_url runs on a HikariCP pool with the section's size and timeouts")
  void postgresPool() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String url = pg.getJdbcUrl("postgres", "postgres");
      String yaml = "ledger: postgres\njdbc_url: \"" + url + "\"\npool:\n  max_size: 3\n  connect_timeout_ms: 400\n"
          + "  socket_timeout_ms: 9000\n  statement_timeout_ms: 700\n";
      try (Hfr hfr = builder().config(config(yaml)).build()) {
        write(hfr);
        HikariDataSource pool = (HikariDataSource) ((PostgresLedger) hfr.ledger()).dataSource();
        assertThat(pool.getMaximumPoolSize()).isEqualTo(3);
        assertThat(pool.getConnectionTimeout()).isEqualTo(400);
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
            ResultSet r = s.executeQuery("SHOW statement_timeout")) {
          r.next();
          assertThat(r.getString(1)).as("the server's bound on the ledger's statements").isEqualTo("700ms");
          assertThat(c.getNetworkTimeout()).as("the socket timeout (the driver's is in whole seconds)").isEqualTo(9000);
        }
      }
    }
  }

  @Test
  @DisplayName("ledger: postgres without a database names the two ways to give one")
  void postgresWithoutDatabase() {
    assertThatThrownBy(() -> builder().config(config("ledger: postgres")).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("idempotency.jdbc_url")
        .hasMessageContaining("ledgerDataSource");
  }
}
