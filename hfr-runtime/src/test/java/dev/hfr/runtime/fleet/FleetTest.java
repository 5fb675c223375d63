package dev.hfr.runtime.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.CircuitState;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.breaker.TripReason;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.InMemoryLedger;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.InetSocketAddress;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.postgresql.ds.PGSimpleDataSource;

@Tag("e2e") // several JVMs or databases: the end-to-end pass (-Pe2e)
@DisplayName("A fleet shares one retry budget per tenant and one view of each breaker through PostgreSQL")
class FleetTest {

  /** A fixed instant well inside one budget window, so the windows of the test are deterministic. */
  private static final long START = 1_767_225_600_000L + 1_000;

  @TempDir Path data;
  private EmbeddedPostgres postgres;
  private int port;
  private final List<PostgresFleet> fleets = new ArrayList<>();

  @BeforeEach
  void startPostgres() throws Exception {
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    postgres = start();
  }

  /** Started on a fixed port and data directory, so a test can stop it and start it again. */
  private EmbeddedPostgres start() throws Exception {
    return EmbeddedPostgres.builder().setPort(port).setDataDirectory(data.resolve("pg")).setCleanDataDirectory(false).start();
  }

  @AfterEach
  void stop() throws Exception {
    fleets.forEach(PostgresFleet::close);
    if (postgres != null) {
      postgres.close();
    }
  }

  private PGSimpleDataSource dataSource() {
    PGSimpleDataSource ds = new PGSimpleDataSource();
    ds.setUrl("jdbc:postgresql://127.0.0.1:" + port + "/postgres");
    ds.setUser("postgres");
    ds.setConnectTimeout(1);
    return ds;
  }

  private PostgresFleet fleet(String worker, Clock clock, int expectedWorkers, SimpleMeterRegistry registry) {
    PostgresFleet fleet = PostgresFleet.builder(dataSource()).worker(worker).clock(clock).expectedWorkers(expectedWorkers)
        .syncInterval(Duration.ofMillis(100)).meterRegistry(registry).build();
    fleets.add(fleet);
    return fleet;
  }

  private static TenantRetryBudgets budgets(PostgresFleet fleet, Clock clock, int limit) {
    return TenantRetryBudgets.builder(clock).retriesPerWindow(limit).supply(fleet.retryTokens()).build();
  }

  @Test
  @DisplayName("four workers with eight threads each get exactly the tenant's limit, not four times it")
  void theBudgetHoldsWhateverTheNumberOfWorkers() throws Exception {
    VirtualTime time = new VirtualTime(START);
    List<TenantRetryBudgets> workers = new ArrayList<>();
    for (int w = 0; w < 4; w++) {
      workers.add(budgets(fleet("w" + w, time, 4, new SimpleMeterRegistry()), time, 100));
    }
    AtomicInteger granted = new AtomicInteger();
    ExecutorService pool = Executors.newFixedThreadPool(32);
    List<Future<?>> done = new ArrayList<>();
    for (TenantRetryBudgets worker : workers) {
      for (int t = 0; t < 8; t++) {
        done.add(pool.submit(() -> {
          for (int i = 0; i < 50; i++) {
            if (worker.tryAcquire("acme")) {
              granted.incrementAndGet();
            }
          }
        }));
      }
    }
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS);
    }
    pool.shutdown();

    assertThat(granted.get()).isEqualTo(100);
    assertThat(workers.get(0).tryAcquire("calm-tenant")).as("another tenant's bucket is untouched").isTrue();
  }

  @Test
  @DisplayName("an engine built with fleet(...) takes its retries from the fleet's bucket")
  void theEngineDrawsItsRetriesFromTheFleet() throws Exception {
    AtomicInteger requests = new AtomicInteger();
    HttpServer provider = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    provider.createContext("/llm", exchange -> {
      boolean first = requests.incrementAndGet() == 1;
      exchange.sendResponseHeaders(first ? 503 : 200, 2);
      exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
      exchange.close();
    });
    provider.start();
    PostgresFleet fleet = fleet("w1", Clock.system(), 1, new SimpleMeterRegistry());
    // retry_ratio 0: the retry comes from the floor, which the fleet shares (a share of the traffic is the worker's own)
    HfrConfig floorOnly = HfrConfigLoader.parse("hfr:\n  retry:\n    retry_ratio: 0\n", "hfr.yaml");
    try (Hfr hfr = Hfr.builder().config(floorOnly).ledger(new InMemoryLedger()).fleet(fleet).build();
        TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t1").build())) {
      String url = "http://127.0.0.1:" + provider.getAddress().getPort() + "/llm";
      assertThat(hfr.execute(FleetWorker.LLM, FleetWorker.invocation(HttpClient.newHttpClient(), url, "w1", "acme", "c1")))
          .isEqualTo("ok");
      assertThat(task.report().retryCount()).isEqualTo(1);
    } finally {
      provider.stop(0);
    }
    try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
        var r = s.executeQuery("SELECT granted FROM hfr_fleet_budget WHERE tenant = 'acme'")) {
      assertThat(r.next()).as("the retry's token came from the fleet's row").isTrue();
      assertThat(r.getInt(1)).isPositive();
    }
  }

  @Test
  @DisplayName("a worker that dies loses at most its unused batch; one that closes gives its batch back")
  void aDeadWorkerLosesAtMostItsBatch() {
    VirtualTime time = new VirtualTime(START);
    PostgresFleet dying = fleet("dying", time, 2, new SimpleMeterRegistry());
    TenantRetryBudgets dead = budgets(dying, time, 100);
    assertThat(dead.tryAcquire("acme")).isTrue(); // leases a batch of 2 (100 / 50), uses 1
    TenantRetryBudgets survivor = budgets(fleet("survivor", time, 2, new SimpleMeterRegistry()), time, 100);
    int got = 0;
    while (survivor.tryAcquire("acme")) {
      got++;
    }
    assertThat(got).isEqualTo(98);

    VirtualTime later = new VirtualTime(START);
    PostgresFleet leaving = fleet("leaving", later, 2, new SimpleMeterRegistry());
    assertThat(budgets(leaving, later, 100).tryAcquire("globex")).isTrue();
    leaving.close();
    fleets.remove(leaving);
    int left = 0;
    TenantRetryBudgets other = budgets(fleet("other", later, 2, new SimpleMeterRegistry()), later, 100);
    while (other.tryAcquire("globex")) {
      left++;
    }
    assertThat(left).as("the closed worker returned its unused token").isEqualTo(99);
  }

  @Test
  @DisplayName("without the database a worker uses its share, says so once, counts it, and rejoins")
  void withoutTheDatabaseAWorkerUsesItsShareAndRejoins() throws Exception {
    VirtualTime time = new VirtualTime(START);
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    PostgresFleet fleet = fleet("w1", time, 4, registry);
    TenantRetryBudgets budgets = budgets(fleet, time, 100);
    assertThat(budgets.tryAcquire("acme")).isTrue();

    postgres.close();
    postgres = null;
    int granted = 0;
    for (int i = 0; i < 60; i++) {
      if (budgets.tryAcquire("acme")) {
        granted++;
      }
    }
    assertThat(granted).as("its share: 100 / 4 workers").isEqualTo(25);
    assertThat(fleet.connected()).isFalse();
    assertThat(registry.counter("harness.fleet.fallbacks").count()).isEqualTo(1.0);
    assertThat(registry.get("harness.fleet.connected").gauge().value()).isZero();

    postgres = start();
    time.advance(TimeUnit.SECONDS.toNanos(2));
    assertThat(budgets.tryAcquire("acme")).as("the token leased before the outage").isTrue();
    assertThat(budgets.tryAcquire("acme")).as("a new lease from the fleet").isTrue();
    assertThat(fleet.connected()).isTrue();
    assertThat(registry.get("harness.fleet.connected").gauge().value()).isEqualTo(1.0);
    try (Connection c = dataSource().getConnection(); Statement s = c.createStatement();
        var r = s.executeQuery("SELECT granted FROM hfr_fleet_budget WHERE tenant = 'acme'")) {
      assertThat(r.next()).isTrue();
      assertThat(r.getInt(1)).as("back on the fleet's bucket").isGreaterThan(2);
    }
  }

  @Test
  @DisplayName("available() and refund() follow where the worker's tokens come from: its batch and the fleet, or its share during an outage")
  void availableAndRefundFollowTheSourceOfTheTokens() throws Exception {
    VirtualTime time = new VirtualTime(START);
    PostgresFleet fleet = fleet("w1", time, 4, new SimpleMeterRegistry());
    TenantRetryBudgets budgets = budgets(fleet, time, 100);
    assertThat(budgets.tryAcquire("acme")).isTrue(); // leases a batch of 2, uses 1
    assertThat(budgets.available("acme")).as("1 left in the batch + the 98 the fleet had not granted").isEqualTo(99);
    budgets.refund("acme");
    assertThat(budgets.available("acme")).as("a refund goes back into the batch, not to the database").isEqualTo(100);

    postgres.close();
    postgres = null;
    long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (fleet.connected() && System.nanoTime() < giveUp) {
      Thread.sleep(20); // the breaker table's periodic read finds the outage
    }
    assertThat(fleet.connected()).isFalse();
    assertThat(budgets.available("acme")).as("during the outage: the local share, 100 / 4 workers").isEqualTo(25);
    assertThat(budgets.tryAcquire("acme")).isTrue();
    assertThat(budgets.available("acme")).isEqualTo(24);
    budgets.refund("acme");
    assertThat(budgets.available("acme")).as("a refund during the outage goes to the local share").isEqualTo(25);
    budgets.refund("acme");
    assertThat(budgets.available("acme")).as("never above the share").isEqualTo(25);
  }

  @Test
  @DisplayName("a breaker opened by one worker is open on the others within 2 s; one worker probes; its verdict spreads")
  void oneWorkersBreakerIsEveryWorkersBreaker() throws Exception {
    Clock clock = Clock.system();
    CircuitBreakerConfig config = CircuitBreakerConfig.builder().consecutiveFailures(3).cooldown(Duration.ofSeconds(1))
        .cooldownJitter(0).halfOpenProbes(1).build();
    List<CircuitBreakers> registries = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      PostgresFleet fleet = fleet("w" + w, clock, 3, new SimpleMeterRegistry());
      CircuitBreakers breakers = CircuitBreakers.builder(clock).defaults(config).listener(fleet.breakerListener()).build();
      fleet.watch(breakers);
      registries.add(breakers);
    }
    CircuitBreaker first = registries.get(0).forTarget(TargetKind.PROVIDER, "llm");
    for (int i = 0; i < 3; i++) {
      assertThat(first.tryAcquire()).isTrue();
      first.onFailure(Fault.T2, 1_000_000);
    }
    assertThat(first.state()).isEqualTo(CircuitState.OPEN);
    long opened = System.nanoTime();

    CircuitBreaker second = registries.get(1).forTarget(TargetKind.PROVIDER, "llm");
    CircuitBreaker third = registries.get(2).forTarget(TargetKind.PROVIDER, "llm");
    awaitState(List.of(second, third), CircuitState.OPEN, opened);
    assertThat(second.lastTripReason()).isEqualTo(TripReason.FLEET);
    assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - opened)).as("seen by the others within 2 s").isLessThan(2_000);

    // The cooldown ends: one worker of the fleet gets to probe, the others stay open.
    List<CircuitBreaker> all = List.of(first, second, third);
    CircuitBreaker prober = null;
    int grants = 0;
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (prober == null && System.nanoTime() < until) {
      for (CircuitBreaker b : all) {
        if (b.tryAcquire()) {
          grants++;
          prober = b;
          break;
        }
      }
      Thread.sleep(10);
    }
    assertThat(prober).as("one worker probes").isNotNull();
    for (int i = 0; i < 20; i++) {
      for (CircuitBreaker b : all) {
        if (b != prober && b.tryAcquire()) {
          grants++;
        }
      }
      Thread.sleep(10);
    }
    assertThat(grants).as("probes the recovering target got from the whole fleet").isEqualTo(1);

    prober.onSuccess(1_000_000);
    assertThat(prober.state()).isEqualTo(CircuitState.CLOSED);
    CircuitBreaker probed = prober;
    awaitState(all.stream().filter(b -> b != probed).toList(), CircuitState.CLOSED, System.nanoTime());
  }

  private static void awaitState(List<CircuitBreaker> breakers, CircuitState state, long sinceNanos) throws InterruptedException {
    while (System.nanoTime() - sinceNanos < TimeUnit.SECONDS.toNanos(2)) {
      if (breakers.stream().allMatch(b -> b.state() == state)) {
        return;
      }
      Thread.sleep(10);
    }
    assertThat(breakers).extracting(CircuitBreaker::state).as("within 2 s").containsOnly(state);
  }
}
