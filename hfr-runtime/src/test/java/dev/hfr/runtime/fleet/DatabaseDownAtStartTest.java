package dev.hfr.runtime.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CallRefusedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OneArgumentCall;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.PostgresLedger;
import dev.hfr.runtime.telemetry.CapturedLogger;
import dev.hfr.runtime.telemetry.DecisionSink;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker configured as docs/FLEET.md shows (PostgreSQL ledger, fleet on the same database) whose database
 * is down when it starts, and comes up empty later: the worker starts, reads, refuses writes cleanly, and
 * rejoins — schema created, budgets and breakers shared, writes guarded — once the database answers.
 */
@DisplayName("A worker whose PostgreSQL is down at start-up starts, refuses writes, and rejoins when it answers")
class DatabaseDownAtStartTest {

  private static final ToolDescriptor SEARCH = ToolDescriptor.builder("com.acme.Search", "find", Risk.R0)
      .parameters("q").resultType(String.class).build();
  private static final ToolDescriptor CREATE = ToolDescriptor.builder("com.acme.Orders", "create", Risk.R2)
      .parameters("sku").reconcile("find").resultType(String.class).build();

  private final AtomicInteger sent = new AtomicInteger();

  /** A call with {@code argument} that counts what is sent. */
  private ToolInvocation<String> call(String argument) {
    return OneArgumentCall.of(argument, () -> {
      sent.incrementAndGet();
      return "done " + argument;
    });
  }

  private static int freePort() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  private static double meter(MeterRegistry registry, String name) {
    var m = registry.find(name).meter();
    return m == null ? Double.NaN : m.measure().iterator().next().getValue();
  }

  @Test
  @DisplayName("start < 5 s with the database down; reads work; writes refused as ledger_unavailable and never sent;"
      + " after the database starts empty: schema created, rejoined, writes guarded, no PostgreSQL error logged")
  void startsWithoutTheDatabaseAndRejoins(@TempDir Path dir) throws Exception {
    int port = freePort();
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    String yaml = "hfr:\n  idempotency:\n    ledger: postgres\n    jdbc_url: \"" + url + "\"\n"
        + "  fleet:\n    enabled: true\n    expected_workers: 4\n";
    MeterRegistry registry = new SimpleMeterRegistry();
    long startNanos = System.nanoTime();
    try (CapturedLogger ledgerLog = CapturedLogger.of(PostgresLedger.class.getName(), Level.ALL);
        CapturedLogger fleetLog = CapturedLogger.of("dev.hfr.fleet", Level.ALL);
        Hfr hfr = Hfr.builder().config(HfrConfigLoader.parse(yaml, "hfr.yaml")).meterRegistry(registry)
        .decisionSink(DecisionSink.discarding()).build()) {
      long startMillis = (System.nanoTime() - startNanos) / 1_000_000;
      System.out.println("FIGURE build() with the database down: " + startMillis + " ms");
      assertThat(startMillis).as("build() with the database down").isLessThan(5_000);
      assertThat(meter(registry, "harness.ledger.available")).isZero();
      assertThat(meter(registry, "harness.fleet.connected")).isZero();

      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-down").build())) {
        assertThat(hfr.execute(SEARCH, call("q"))).as("a read needs no ledger").isEqualTo("done q");
        assertThatThrownBy(() -> hfr.execute(CREATE, call("sku-1")))
            .isInstanceOf(CallRefusedException.class)
            .hasMessageContaining("ledger_unavailable")
            .satisfies(e -> assertThat(((ToolCallException) e).outcome().reason()).isEqualTo("ledger_unavailable"));
      }
      assertThat(sent).as("the read was sent, the write was not").hasValue(1);
      assertThat(registry.find("harness.controller.failures").counters()).as("a refusal is not a controller failure")
          .allSatisfy(c -> assertThat(c.count()).isZero());

      Path pgLog = dir.resolve("postgres.log");
      try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPort(port)
          .setOutputRedirector(ProcessBuilder.Redirect.to(pgLog.toFile()))
          .setErrorRedirector(ProcessBuilder.Redirect.to(pgLog.toFile())).start()) {
        long ledgerBack = OneArgumentCall.awaitMillis(() -> meter(registry, "harness.ledger.available") == 1, 15_000);
        long fleetBack = OneArgumentCall.awaitMillis(() -> meter(registry, "harness.fleet.connected") == 1, 15_000);
        System.out.println("FIGURE rejoin after the database answers: ledger " + ledgerBack + " ms, fleet (after the"
            + " ledger) " + fleetBack + " ms");
        assertThat(ledgerBack).as("the ledger rejoined").isNotNegative();
        assertThat(fleetBack).as("the fleet rejoined").isNotNegative();

        try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-up").build())) {
          assertThat(hfr.execute(CREATE, call("sku-1"))).isEqualTo("done sku-1");
          assertThat(task.committedWrites()).hasSize(1);
        }
        assertThat(sent).hasValue(2);
        assertThat(OneArgumentCall.awaitMillis(() -> tableExists(pg, "hfr_fleet_breaker"), 5_000)).as("the fleet's tables").isNotNegative();

        assertThat(meter(registry, "harness.ledger.outages")).as("one outage: the start").isEqualTo(1);
        assertThat(meter(registry, "harness.fleet.fallbacks")).isEqualTo(1);
        assertThat(meter(registry, "harness.fleet.rejoins")).isEqualTo(1);
        for (CapturedLogger log : List.of(ledgerLog, fleetLog)) {
          assertThat(log.records).extracting(LogRecord::getLevel).as("one warning when it went, one line when it came back")
              .containsExactly(Level.WARNING, Level.INFO);
        }
        assertThat(Files.readAllLines(pgLog)).as("PostgreSQL saw no failing statement")
            .noneMatch(line -> line.contains("ERROR:"));
      }
    }
  }

  private static boolean tableExists(EmbeddedPostgres pg, String table) {
    try (var c = pg.getPostgresDatabase().getConnection(); var s = c.createStatement();
        var r = s.executeQuery("SELECT to_regclass('" + table + "') IS NOT NULL")) {
      r.next();
      return r.getBoolean(1);
    } catch (java.sql.SQLException e) {
      return false;
    }
  }
}
