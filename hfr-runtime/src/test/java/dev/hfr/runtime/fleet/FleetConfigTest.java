package dev.hfr.runtime.fleet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OneArgumentCall;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigException;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.time.Clock;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The {@code fleet} section of {@code hfr.yaml}: each key changes what an engine built from the file does. */
@Tag("e2e") // several JVMs or databases: the end-to-end pass (-Pe2e)
@DisplayName("fleet.* in hfr.yaml makes an engine a member of a fleet")
class FleetConfigTest {

  private static EmbeddedPostgres postgres;
  private static String url;

  private HttpServer provider;
  private String providerUrl;
  private final AtomicInteger requests = new AtomicInteger();

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
    url = postgres.getJdbcUrl("postgres", "postgres");
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  /** A provider that answers 503 to every odd request and 200 to every even one: each call is one retry. */
  @BeforeEach
  void startProvider() throws Exception {
    provider = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    provider.createContext("/llm", exchange -> {
      boolean odd = requests.incrementAndGet() % 2 == 1;
      exchange.sendResponseHeaders(odd ? 503 : 200, 2);
      exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
      exchange.close();
    });
    provider.start();
    providerUrl = "http://127.0.0.1:" + provider.getAddress().getPort() + "/llm";
  }

  @AfterEach
  void stopProvider() {
    provider.stop(0);
  }

  /**
   * Retries from the floor only: the floor is what the fleet shares, while a share of the traffic (retry_ratio,
   * taken first) is each worker's own.
   */
  private static final String FLOOR_ONLY = "retry:\n  retry_ratio: 0\n";

  private static HfrConfig config(String yaml) {
    return HfrConfigLoader.parse("hfr:\n" + yaml.indent(2), "hfr.yaml");
  }

  /** One call that fails once and is retried, in a task of {@code tenant}. */
  private void retriedCall(Hfr hfr, String tenant) {
    try (TaskScope task = hfr.openTask(TaskSpec.builder(tenant, "t-" + requests.get()).build())) {
      assertThat(hfr.execute(FleetWorker.LLM, FleetWorker.invocation(HttpClient.newHttpClient(), providerUrl, "w", tenant, "c")))
          .isEqualTo("ok");
      assertThat(task.report().retryCount()).isEqualTo(1);
    }
  }

  /** The tokens the fleet's bucket of {@code tenant} has granted, or -1 when it has no row (or no table). */
  private static int grantedToFleet(String tenant) throws SQLException {
    try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
      try (ResultSet r = s.executeQuery("SELECT to_regclass('hfr_fleet_budget') IS NOT NULL")) {
        r.next();
        if (!r.getBoolean(1)) {
          return -1;
        }
      }
      try (ResultSet r = s.executeQuery("SELECT coalesce(sum(granted), -1) FROM hfr_fleet_budget WHERE tenant = '" + tenant + "'")) {
        r.next();
        return r.getInt(1);
      }
    }
  }

  @Test
  @DisplayName("fleet.enabled: true on the PostgreSQL ledger — the retry's token comes from the fleet's bucket in the same database")
  void enabledSharesTheLedgersDatabase() throws Exception {
    String yaml = "idempotency:\n  ledger: postgres\n  jdbc_url: \"" + url + "\"\n" + FLOOR_ONLY;
    try (Hfr local = Hfr.builder().config(config(yaml)).build()) {
      retriedCall(local, "solo");
    }
    assertThat(grantedToFleet("solo")).as("without fleet.enabled the budget stays in the JVM").isEqualTo(-1);

    try (Hfr member = Hfr.builder().config(config(yaml + "fleet:\n  enabled: true\n")).build()) {
      retriedCall(member, "shared");
    }
    assertThat(grantedToFleet("shared")).isPositive();
  }

  @Test
  @DisplayName("fleet.jdbc_url gives the fleet a database of its own, whatever the ledger")
  void jdbcUrlNamesTheFleetsDatabase() throws Exception {
    String yaml = "idempotency:\n  ledger: memory\n" + FLOOR_ONLY + "fleet:\n  enabled: true\n  jdbc_url: \"" + url + "\"\n";
    try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
      retriedCall(member, "own-db");
    }
    assertThat(grantedToFleet("own-db")).isPositive();
  }

  @Test
  @DisplayName("retry.retry_ratio in a fleet: a retry the worker's own calls have earned is its own; the fleet's floor is left for the rest")
  void aWorkersShareOfItsCallsIsItsOwn() throws Exception {
    String yaml = "idempotency:\n  ledger: memory\nfleet:\n  enabled: true\n  jdbc_url: \"" + url + "\"\n";
    try (Hfr member = Hfr.builder().config(config(yaml.replace("fleet:", FLOOR_ONLY + "fleet:"))).build()) {
      retriedCall(member, "floor");
    }
    assertThat(grantedToFleet("floor")).as("retry_ratio: 0, the floor the fleet shares").isPositive();

    try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
      retriedCall(member, "earned");
    }
    assertThat(grantedToFleet("earned")).as("the default ratio's share paid for the retry: no row in the fleet's table").isEqualTo(-1);
  }

  @Test
  @DisplayName("fleet.expected_workers: with the database unreachable, a worker allows itself limit / expected_workers")
  void expectedWorkersIsTheShareWithoutTheDatabase() throws Exception {
    int closedPort;
    try (ServerSocket s = new ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    String yaml = "idempotency:\n  ledger: memory\nretry:\n  max_retries_per_tenant_per_min: 100\n"
        + "fleet:\n  enabled: true\n  expected_workers: 4\n  jdbc_url: \"jdbc:postgresql://127.0.0.1:" + closedPort
        + "/postgres?user=postgres\"\n";
    try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
      TenantRetryBudgets budgets = member.tenantBudgets();
      int granted = 0;
      while (granted < 100 && budgets.tryAcquire("acme")) {
        granted++;
      }
      assertThat(granted).as("its share of 100 among 4 workers").isEqualTo(25);
    }
  }

  @Test
  @DisplayName("fleet.batch_size: a lease takes at most this many tokens from the fleet's bucket (default 20)")
  void batchSize() throws Exception {
    String yaml = "idempotency:\n  ledger: memory\nretry:\n  max_retries_per_tenant_per_min: 1000\n  retry_ratio: 0\n"
        + "fleet:\n  enabled: true\n  jdbc_url: \"" + url + "\"\n";
    try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
      retriedCall(member, "batch-default");
      assertThat(grantedToFleet("batch-default")).isEqualTo(20);
    }
    try (Hfr member = Hfr.builder().config(config(yaml + "  batch_size: 5\n")).build()) {
      retriedCall(member, "batch-5");
      assertThat(grantedToFleet("batch-5")).isEqualTo(5);
    }
  }

  @Test
  @DisplayName("fleet.worker: the name this worker writes into the fleet's breaker table")
  void worker() throws Exception {
    String yaml = "idempotency:\n  ledger: memory\ncircuit_breaker:\n  consecutive_failures: 1\n"
        + "fleet:\n  enabled: true\n  worker: billing-7\n  jdbc_url: \"" + url + "\"\n";
    try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
      int closedPort;
      try (ServerSocket s = new ServerSocket(0)) {
        closedPort = s.getLocalPort();
      }
      try (TaskScope task = member.openTask(TaskSpec.builder("acme", "t-worker").build())) {
        // refused on every attempt: the call fails and its breaker opens
        assertThatThrownBy(() -> member.execute(FleetWorker.CALM, FleetWorker.invocation(HttpClient.newHttpClient(),
            "http://127.0.0.1:" + closedPort + "/calm", "w", "acme", "c")));
      }
      assertThat(OneArgumentCall.awaitMillis(() -> count("SELECT count(*) FROM hfr_fleet_breaker WHERE updated_by = 'billing-7'") == 1, 10_000))
          .as("the open breaker published under the configured name").isNotNegative();
    }
  }

  @Test
  @DisplayName("fleet.sync_interval_ms: how late a breaker state written without a notification reaches the worker")
  void syncIntervalMs() throws Exception {
    for (long interval : new long[] {100, 60_000}) {
      String target = "sync-probe-" + interval;
      String yaml = "idempotency:\n  ledger: memory\nfleet:\n  enabled: true\n  sync_interval_ms: " + interval
          + "\n  jdbc_url: \"" + url + "\"\n";
      long builtAt = System.currentTimeMillis() - 1;
      try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
        var breaker = member.circuitBreakers().orElseThrow().forTarget(dev.hfr.runtime.breaker.TargetKind.TOOL, target);
        // The worker has read the table once (its first read, right after LISTEN) and now waits out its interval.
        assertThat(OneArgumentCall.awaitMillis(() -> count("SELECT count(*) FROM pg_stat_activity WHERE state = 'idle'"
            + " AND query LIKE 'SELECT target, state, open_until%' AND backend_start >= to_timestamp(" + builtAt
            + " / 1000.0)") >= 1, 10_000)).isNotNegative();
        try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement()) {
          s.executeUpdate("INSERT INTO hfr_fleet_breaker VALUES ('tool:" + target + "', 'OPEN', "
              + (System.currentTimeMillis() + 120_000) + ", NULL, 0, 'elsewhere', " + System.currentTimeMillis() + ")");
        }
        if (interval == 100) {
          assertThat(OneArgumentCall.awaitMillis(() -> breaker.state() == dev.hfr.runtime.breaker.CircuitState.OPEN, 10_000))
              .as("read within its 100 ms interval").isNotNegative();
        } else {
          Thread.sleep(1_500);
          assertThat(breaker.state()).as("not read again before 60 s").isEqualTo(dev.hfr.runtime.breaker.CircuitState.CLOSED);
        }
      }
    }
  }

  @Test
  @DisplayName("fleet.pool: the fleet's pool on jdbc_url waits connect_timeout_ms for a server that never answers")
  void pool() throws Exception {
    try (ServerSocket silent = new ServerSocket(0)) {
      java.util.List<java.net.Socket> held = new java.util.concurrent.CopyOnWriteArrayList<>();
      Thread acceptor = new Thread(() -> {
        try {
          while (true) {
            held.add(silent.accept());
          }
        } catch (java.io.IOException closed) {
          // the test is over
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      String yaml = "idempotency:\n  ledger: memory\nfleet:\n  enabled: true\n  jdbc_url: \"jdbc:postgresql://127.0.0.1:"
          + silent.getLocalPort() + "/postgres?user=postgres\"\n  pool:\n    connect_timeout_ms: ";
      long shortWait = millisToBuild(yaml + "300\n");
      long longWait = millisToBuild(yaml + "3000\n");
      assertThat(longWait).as("3 s to connect").isGreaterThanOrEqualTo(2_900);
      assertThat(shortWait).as("0.3 s to connect").isLessThan(longWait);
      for (java.net.Socket s : held) {
        s.close();
      }
    }
  }

  private static long millisToBuild(String yaml) {
    long start = System.nanoTime();
    try (Hfr member = Hfr.builder().config(config(yaml)).build()) {
      return (System.nanoTime() - start) / 1_000_000;
    }
  }

  private static int count(String sql) {
    try (Connection c = postgres.getPostgresDatabase().getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery(sql)) {
      r.next();
      return r.getInt(1);
    } catch (SQLException e) {
      return -1; // the table does not exist yet
    }
  }

  @Test
  @DisplayName("fleet.enabled without a database names every way to give one")
  void enabledWithoutADatabase() {
    assertThatThrownBy(() -> Hfr.builder().config(config("idempotency:\n  ledger: memory\nfleet:\n  enabled: true\n")).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("fleet.jdbc_url")
        .hasMessageContaining("idempotency.jdbc_url")
        .hasMessageContaining("fleet(...)");
  }

  @Test
  @DisplayName("a fleet and budgets of the caller's own cannot both be given: the engine would silently not share them")
  void aFleetIsNotCombinedWithOwnBudgets() {
    PostgresFleet fleet = PostgresFleet.builder(url).build();
    try {
      assertThatThrownBy(() -> Hfr.builder().ledger(new InMemoryLedger()).fleet(fleet)
              .tenantBudgets(TenantRetryBudgets.builder(Clock.system()).build()).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("tenantBudgets(...)")
          .hasMessageContaining("fleet.retryTokens()");
      assertThatThrownBy(() -> Hfr.builder().ledger(new InMemoryLedger())
              .config(config("fleet:\n  enabled: true\n  jdbc_url: \"" + url + "\"\n"))
              .circuitBreakers(dev.hfr.runtime.breaker.CircuitBreakers.builder(Clock.system()).build()).build())
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("fleet.enabled: true")
          .hasMessageContaining("circuitBreakers(...)");
    } finally {
      fleet.close();
    }
  }

  @Test
  @DisplayName("fleet keys are checked on load with file, line and key")
  void keysAreValidated() {
    assertThatThrownBy(() -> config("fleet:\n  enabled: true\n  expected_workers: 0\n  worker_count: 3\n"))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("hfr.yaml:4")
        .hasMessageContaining("fleet.expected_workers")
        .hasMessageContaining("fleet.worker_count")
        .hasMessageContaining("unknown key");
    assertThat(HfrConfig.defaults().fleet().enabled()).as("one JVM unless asked").isFalse();
  }
}
