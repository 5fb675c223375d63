package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.internal.engine.LoopbackHttp.Answer;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Many tasks of two tenants on one engine, on real time and a real HTTP service: one tenant storms 429s,
 * the other's calls succeed as fast as without the storm, and the stormer's retries stop at its token
 * bucket.
 */
@DisplayName("Tenant isolation under a retry storm")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class TenantIsolationTest {

  private static final int STORM_BUDGET = 40;
  private static final int TASKS_PER_THREAD = 30;
  private static final int THREADS_PER_TENANT = 4;

  private static final ToolDescriptor GET = ToolDescriptor.builder("com.acme.Api", "get", Risk.R0).parameters("path")
      .retry(RetrySpec.of(4, 5, 20, Fault.T1, Fault.T2, Fault.T3)).resultType(String.class).build();

  static final class Get extends ToolInvocation<String> {
    private final LoopbackHttp http;
    private final String path;

    Get(LoopbackHttp http, String path) {
      this.http = http;
      this.path = path;
    }

    @Override
    public String proceed(String key) throws Exception {
      return http.get(path, Duration.ofSeconds(5));
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return path;
    }
  }

  /** What one tenant's tasks saw. */
  static final class Run {
    final AtomicInteger ok = new AtomicInteger();
    final AtomicInteger failed = new AtomicInteger();
    final List<Long> latencies = Collections.synchronizedList(new ArrayList<>());

    long p95Nanos() {
      List<Long> sorted = new ArrayList<>(latencies);
      Collections.sort(sorted);
      return sorted.get((int) Math.ceil(sorted.size() * 0.95) - 1);
    }
  }

  @Test
  @DisplayName("the calm tenant keeps its success rate and latency; the stormer's retries are capped by its bucket")
  void stormDoesNotStarveTheOtherTenant() throws Exception {
    try (LoopbackHttp http = new LoopbackHttp()) {
      http.route("/calm", (n, body, q) -> Answer.ok("{\"ok\":true}"));
      http.route("/storm", (n, body, q) -> Answer.status(429, "retry-after-ms", "5",
          "{\"error\":{\"type\":\"rate_limit_error\",\"message\":\"Too many requests\"}}"));
      SimpleMeterRegistry registry = new SimpleMeterRegistry();
      Clock clock = Clock.system();
      Hfr hfr = Hfr.builder()
          .clock(clock)
          .sleeper(Sleeper.system())
          .seed(3)
          .ledger(new InMemoryLedger(clock))
          .meterRegistry(registry)
          .decisionSink(DecisionSink.discarding())
          .tenantBudgets(TenantRetryBudgets.builder(clock).retriesPerWindow(600).tenant("storm", STORM_BUDGET)
              .window(Duration.ofMinutes(1)).build())
          // Keep the breakers out of the way: this test is about the tenant's token bucket.
          .circuitBreakers(CircuitBreakers.builder(clock)
              .defaults(CircuitBreakerConfig.builder().errorRateThreshold(1.0).rateLimitedRateThreshold(1.0)
                  .consecutiveFailures(1_000_000).build()).build())
          .build();
      http.get("/calm", Duration.ofSeconds(10)); // warm the client and server up

      Run alone = new Run();
      run(hfr, http, List.of(task("calm", "/calm", alone)));

      Run calm = new Run();
      Run storm = new Run();
      long stormStart = System.nanoTime();
      run(hfr, http, List.of(task("calm", "/calm", calm), task("storm", "/storm", storm)));
      double stormMinutes = (System.nanoTime() - stormStart) / 60e9;
      System.out.printf("calm p95 alone %.1f ms, during the storm %.1f ms; storm phase %.1f s, /storm hits %d%n",
          alone.p95Nanos() / 1e6, calm.p95Nanos() / 1e6, stormMinutes * 60, http.hits("/storm"));

      int calls = THREADS_PER_TENANT * TASKS_PER_THREAD;
      assertThat(alone.ok.get()).isEqualTo(calls);
      assertThat(calm.ok.get()).as("calm tenant's successes during the storm").isEqualTo(calls);
      long limit = Math.max(4 * alone.p95Nanos(), alone.p95Nanos() + TimeUnit.MILLISECONDS.toNanos(50));
      assertThat(calm.p95Nanos()).as("calm p95 during the storm vs. alone (%d ns)", alone.p95Nanos()).isLessThanOrEqualTo(limit);

      assertThat(storm.failed.get()).isEqualTo(calls);
      int stormRetries = http.hits("/storm") - calls;
      // The floor's bucket holds STORM_BUDGET and refills STORM_BUDGET per minute while the storm lasts; the share
      // adds half a retry per call of the last ten seconds (the whole storm phase here).
      int allowed = STORM_BUDGET + (int) Math.ceil(STORM_BUDGET * stormMinutes) + 1
          + (int) Math.ceil(TenantRetryBudgets.DEFAULT_RATIO * calls);
      assertThat(stormRetries).as("retries the stormer made").isBetween(1, allowed);
      assertThat(registry.get("harness.retry.budget.exhausted").tag("budget", "tenant_budget_exhausted").counter().count())
          .isGreaterThan(0);
    }
  }

  private record Load(String tenant, String path, Run run) {}

  private static Load task(String tenant, String path, Run run) {
    return new Load(tenant, path, run);
  }

  private static void run(Hfr hfr, LoopbackHttp http, List<Load> loads) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS_PER_TENANT * loads.size());
    try {
      List<Future<?>> futures = new ArrayList<>();
      AtomicInteger ids = new AtomicInteger();
      for (Load load : loads) {
        for (int t = 0; t < THREADS_PER_TENANT; t++) {
          futures.add(pool.submit(() -> {
            for (int i = 0; i < TASKS_PER_THREAD; i++) {
              long t0 = System.nanoTime();
              try (TaskScope task = hfr.openTask(TaskSpec.builder(load.tenant(), "task-" + ids.incrementAndGet()).build())) {
                hfr.execute(GET, new Get(http, load.path()));
                load.run().ok.incrementAndGet();
              } catch (ToolCallException e) {
                load.run().failed.incrementAndGet();
              }
              load.run().latencies.add(System.nanoTime() - t0);
            }
            return null;
          }));
        }
      }
      for (Future<?> f : futures) {
        f.get(60, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
