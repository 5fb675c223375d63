package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The ledger's promise under the worst crash there is: a forked JVM places orders through the real
 * engine ({@link EngineOrderDriver}) and a real HTTP service that sometimes commits and then drops the
 * connection; the test kills the JVM with SIGKILL at random moments and restarts it until it finishes.
 * Every intended order must exist exactly once. Before each restart the test waits until the service has
 * finished the dead driver's last request: reconciliation is only as good as the query it asks
 * (Proposition 3 assumes it is linearizable), and a request still in flight would make it lie.
 */
@Tag("e2e") // several JVMs or databases: the end-to-end pass (-Pe2e)
@DisplayName("Kill test: SIGKILL at random moments loses no order and duplicates none")
class LedgerKillTest {

  static final int ORDERS = 1000;
  static final int MAX_KILLS = 8;
  // A guard against hangs that no load can trip: a driver that sends the service nothing for two minutes (its JVM
  // start included) is stuck. A whole run takes ~30-80 s on a quiet machine, over 150 s at load 20, so a budget for
  // the whole run would fail on a busy machine with nothing wrong.
  static final long STALL_NANOS = TimeUnit.SECONDS.toNanos(120);

  @TempDir Path tmp;

  @Test
  @DisplayName("embedded ledger: every intended order exists exactly once")
  void embedded() throws Exception {
    Path dir = tmp.resolve("ledger");
    Outcome o = killAndRestart("embedded", dir.toString(), 11);
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir)) {
      assertAllSettled(ledger);
    }
    o.assertExactlyOnce();
  }

  @Test
  @DisplayName("PostgreSQL ledger: every intended order exists exactly once")
  void postgres() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        HikariDataSource ds = PostgresLedgerTest.pool(pg.getJdbcUrl("postgres", "postgres"), 2)) {
      Outcome o = killAndRestart("postgres", pg.getJdbcUrl("postgres", "postgres"), 12);
      try (PostgresLedger ledger = PostgresLedger.create(ds)) {
        assertAllSettled(ledger);
      }
      o.assertExactlyOnce();
    }
  }

  private static void assertAllSettled(IdempotencyLedger ledger) {
    assertThat(ledger.pending()).isEmpty();
    for (int i = 0; i < ORDERS; i++) {
      assertThat(ledger.find(EngineOrderDriver.TENANT, EngineOrderDriver.key(i)).orElseThrow().state().isCommitted())
          .as("ledger record of order %d", i).isTrue();
    }
  }

  record Outcome(
      String backend, int writes, int drops, int kills, int runs, int resumed, int reconciledCommitted, int reconciledAbsent,
      Map<String, Integer> orders) {
    void assertExactlyOnce() {
      long duplicates = orders.values().stream().filter(n -> n > 1).count();
      long losses = 0;
      for (int i = 0; i < ORDERS; i++) {
        if (orders.getOrDefault(EngineOrderDriver.ref(i), 0) == 0) {
          losses++;
        }
      }
      String summary = String.format(
          "kill test [%s]: orders=%d writes=%d dropped-after-commit=%d kills=%d runs=%d pending-at-restart=%d "
              + "reconciled-committed=%d reconciled-absent=%d duplicates=%d losses=%d",
          backend, ORDERS, writes, drops, kills, runs, resumed, reconciledCommitted, reconciledAbsent, duplicates, losses);
      System.out.println(summary);
      try {
        Files.writeString(Path.of("target", "ledger-kill-test-" + backend + ".txt"), summary + "\n",
            StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING);
      } catch (Exception ignored) {
        // the summary is also on stdout
      }
      assertThat(writes).as("writes").isGreaterThanOrEqualTo(ORDERS);
      assertThat(kills).as("kills").isGreaterThanOrEqualTo(3);
      assertThat(duplicates).as(summary).isZero();
      assertThat(losses).as(summary).isZero();
      assertThat(orders).hasSize(ORDERS);
    }
  }

  /** How many of the engine's decisions (all runs) gave {@code reason}. */
  private int decisions(String backend, String reason) throws java.io.IOException {
    Path file = tmp.resolve(backend + "-decisions.jsonl");
    if (!Files.exists(file)) {
      return 0;
    }
    java.util.regex.Pattern p = java.util.regex.Pattern.compile("\"reason\"\\s*:\\s*\"" + reason + "\"", java.util.regex.Pattern.CASE_INSENSITIVE);
    try (java.util.stream.Stream<String> lines = Files.lines(file)) {
      return (int) lines.filter(l -> p.matcher(l).find()).count();
    }
  }

  private Outcome killAndRestart(String backend, String location, long seed) throws Exception {
    Random random = new Random(seed);
    try (OrderService service = new OrderService(seed, 0.05)) {
      Path log = tmp.resolve(backend + "-driver.log");
      int kills = 0;
      int runs = 0;
      while (true) {
        Process driver = ForkedJvm.start(EngineOrderDriver.class, log, backend, location, String.valueOf(service.port()),
            String.valueOf(ORDERS), tmp.resolve(backend + "-decisions.jsonl").toString());
        runs++;
        Progress progress = new Progress(service, log);
        if (kills < MAX_KILLS) {
          // Kill once the driver is writing: wait for progress, then a random moment (0-300 ms) into it.
          int before = service.writes();
          while (driver.isAlive() && service.writes() == before) {
            progress.check();
            Thread.sleep(2);
          }
          Thread.sleep(random.nextInt(300));
          if (driver.isAlive()) {
            driver.destroyForcibly(); // SIGKILL on Linux
            driver.waitFor(10, TimeUnit.SECONDS);
            kills++;
            service.awaitQuiet();
            continue;
          }
        }
        while (!driver.waitFor(50, TimeUnit.MILLISECONDS)) {
          progress.check();
        }
        assertThat(driver.exitValue()).as(Files.readString(log)).isZero();
        List<String> lines = Files.readAllLines(log);
        assertThat(lines).anyMatch(l -> l.startsWith("DONE"));
        lines.stream().filter(l -> l.startsWith("RESUMED") || l.startsWith("DONE") || l.startsWith("RERUN")).forEach(l -> System.out.println(backend + ": " + l));
        return new Outcome(backend, service.writes(), service.drops(), kills, runs,
            lines.stream().filter(l -> l.startsWith("RESUMED")).mapToInt(l -> Integer.parseInt(l.split(" ")[1])).sum(),
            decisions(backend, "reconciled_committed"),
            decisions(backend, "reconciled_absent"),
            service.orders());
      }
    }
  }

  /** Fails a driver that has sent the order service nothing for {@link #STALL_NANOS}: the one timing bound, load-proof. */
  private static final class Progress {
    private final OrderService service;
    private final Path log;
    private int requests;
    private long lastChange = System.nanoTime();

    Progress(OrderService service, Path log) {
      this.service = service;
      this.log = log;
      this.requests = service.requests();
    }

    void check() {
      int now = service.requests();
      if (now != requests) {
        requests = now;
        lastChange = System.nanoTime();
      }
      assertThat(System.nanoTime() - lastChange).as("nanoseconds since the driver's last request (a hang); driver log: %s", log)
          .isLessThan(STALL_NANOS);
    }
  }
}
