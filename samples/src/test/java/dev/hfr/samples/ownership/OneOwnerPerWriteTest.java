package dev.hfr.samples.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.PostgresLedger;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two workers that both picked up the same job run the same tasks at once, through the generated proxy,
 * against a real order service on 127.0.0.1: every ref gets exactly one order and one charge, and no
 * call ends in {@code controller_failure} — the loser of each race waits for the holder's outcome and
 * answers from the ledger.
 */
@Tag("e2e") // several JVMs or databases: the end-to-end pass (-Pe2e)
@DisplayName("One owner per write: two workers on the same tasks place every order exactly once")
class OneOwnerPerWriteTest {

  static final int TASKS = 200;
  static final int THREADS = 4;

  @TempDir Path tmp;

  @Test
  @DisplayName("two task runners (two engines) on one embedded ledger: 0 duplicates, 0 lost, no controller_failure")
  void twoRunnersOnOneEmbeddedLedger() throws Exception {
    try (OrderService service = new OrderService(3);
        EmbeddedFileLedger ledger = EmbeddedFileLedger.open(tmp.resolve("ledger"));
        Hfr a = Hfr.builder().ledger(ledger).config(OrderTasks.config()).decisionSink(e -> { }).build();
        Hfr b = Hfr.builder().ledger(ledger).config(OrderTasks.config()).decisionSink(e -> { }).build()) {
      OrderDesk deskA = OrderDesk_Recovering.create(a, service.uri());
      OrderDesk deskB = OrderDesk_Recovering.create(b, service.uri());
      CompletableFuture<Map<String, Integer>> runA = CompletableFuture.supplyAsync(() -> run(a, deskA));
      CompletableFuture<Map<String, Integer>> runB = CompletableFuture.supplyAsync(() -> run(b, deskB));
      List<Map<String, Integer>> outcomes = List.of(runA.get(120, TimeUnit.SECONDS), runB.get(120, TimeUnit.SECONDS));

      assertExactlyOnce("embedded", service, outcomes);
    }
  }

  @Test
  @DisplayName("two JVMs on one PostgreSQL ledger: 0 duplicates, 0 lost, no controller_failure")
  void twoJvmsOnOnePostgresLedger() throws Exception {
    try (OrderService service = new OrderService(3);
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      String url = pg.getJdbcUrl("postgres", "postgres");
      try (HikariDataSource ds = pool(url, 2)) {
        PostgresLedger.create(ds).close(); // the schema in place before the race
      }
      Path go = tmp.resolve("go");
      List<Process> workers = new ArrayList<>();
      List<Path> logs = new ArrayList<>();
      try {
        for (String name : List.of("a", "b")) {
          Path log = tmp.resolve("worker-" + name + ".log");
          logs.add(log);
          workers.add(Forked.start(RaceWorker.class, log, url, service.uri().toString(), String.valueOf(TASKS), go.toString()));
        }
        for (int w = 0; w < 2; w++) {
          Forked.awaitLine(logs.get(w), "READY", workers.get(w));
        }
        Files.writeString(go, "go");
        for (Process p : workers) {
          assertThat(p.waitFor(120, TimeUnit.SECONDS)).as("worker finished").isTrue();
        }
      } finally {
        workers.forEach(Process::destroyForcibly);
      }
      List<Map<String, Integer>> outcomes = new ArrayList<>();
      for (int w = 0; w < 2; w++) {
        assertThat(workers.get(w).exitValue()).as(Files.readString(logs.get(w))).isZero();
        outcomes.add(RaceWorker.outcomes(Files.readAllLines(logs.get(w))));
      }
      assertExactlyOnce("postgres", service, outcomes);
    }
  }

  static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setUsername("postgres");
    config.setMaximumPoolSize(size);
    return new HikariDataSource(config);
  }

  private static Map<String, Integer> run(Hfr hfr, OrderDesk desk) {
    try {
      return OrderTasks.runAll(hfr, desk, TASKS, THREADS);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  private static void assertExactlyOnce(String backend, OrderService service, List<Map<String, Integer>> outcomes) {
    Map<String, Integer> orders = service.orders();
    Map<String, Integer> charges = service.charges();
    long duplicateOrders = orders.values().stream().filter(n -> n > 1).count();
    long duplicateCharges = charges.values().stream().filter(n -> n > 1).count();
    int lostOrders = 0;
    int lostCharges = 0;
    for (int i = 0; i < TASKS; i++) {
      lostOrders += orders.containsKey(OrderTasks.ref(i)) ? 0 : 1;
      lostCharges += charges.containsKey(OrderTasks.ref(i)) ? 0 : 1;
    }
    Map<String, Integer> all = new TreeMap<>();
    outcomes.forEach(m -> m.forEach((k, v) -> all.merge(k, v, Integer::sum)));
    String summary = String.format("race [%s]: tasks=%d x2 writes-received=%d duplicate-orders=%d duplicate-charges=%d "
        + "lost-orders=%d lost-charges=%d task-outcomes=%s", backend, TASKS, service.writes(), duplicateOrders, duplicateCharges,
        lostOrders, lostCharges, all);
    System.out.println(summary);
    assertThat(duplicateOrders).as(summary).isZero();
    assertThat(duplicateCharges).as(summary).isZero();
    assertThat(lostOrders).as(summary).isZero();
    assertThat(lostCharges).as(summary).isZero();
    assertThat(all).as(summary).doesNotContainKey("controller_failure").containsEntry("ok", 2 * TASKS);
  }
}
