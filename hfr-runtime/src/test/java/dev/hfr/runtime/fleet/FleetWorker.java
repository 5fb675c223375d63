package dev.hfr.runtime.fleet;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitBreakerListener;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.CircuitState;
import dev.hfr.runtime.breaker.TripReason;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.time.Clock;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One worker JVM of the storm test: eight threads call an LLM-style provider for the "stormy" tenant and one
 * calls a healthy service for the "calm" tenant, through the real engine, until told to stop. Its budgets and
 * breakers are either the fleet's (PostgreSQL) or its own. It prints its breaker changes (when, to what, why, and
 * how many calls it had started by then: calls are numbered in the order they start) and its counts.
 *
 * <p>Arguments: jdbcUrl port worker fleet|local breakers|nobreakers seconds retriesPerWindow windowSeconds.
 */
public final class FleetWorker {

  static final ToolDescriptor LLM = ToolDescriptor.builder("dev.hfr.fleet.Llm", "complete", Risk.R0).parameters("call").build();
  static final ToolDescriptor CALM = ToolDescriptor.builder("dev.hfr.fleet.Calm", "ping", Risk.R0).parameters("call").build();

  public static void main(String[] args) throws Exception {
    String jdbcUrl = args[0];
    String base = "http://127.0.0.1:" + args[1];
    String worker = args[2];
    boolean shared = args[3].equals("fleet");
    boolean withBreakers = args[4].equals("breakers");
    long seconds = Long.parseLong(args[5]);
    int retriesPerWindow = Integer.parseInt(args[6]);
    Duration window = Duration.ofSeconds(Long.parseLong(args[7]));
    Duration cooldown = Duration.ofSeconds(Long.parseLong(args[8]));

    Clock clock = Clock.system();
    // a pool, as a worker runs in production, with a short wait so an outage costs a call little
    HikariConfig pool = new HikariConfig();
    pool.setJdbcUrl(jdbcUrl);
    pool.setUsername("postgres");
    pool.setMaximumPoolSize(3);
    pool.setConnectionTimeout(250);
    HikariDataSource ds = new HikariDataSource(pool);
    PostgresFleet fleet = shared
        ? PostgresFleet.builder(ds).worker(worker).expectedWorkers(4).syncInterval(Duration.ofMillis(250)).build() : null;
    // numbers this worker's calls: a call numbered after a breaker change was started after it
    AtomicInteger ids = new AtomicInteger();
    CircuitBreakerListener printer = new CircuitBreakerListener() {
      @Override
      public void onStateChange(CircuitBreaker b, CircuitState from, CircuitState to, TripReason reason) {
        System.out.println("BREAKER " + System.currentTimeMillis() + " " + b.name() + " " + to + " " + reason + " " + ids.get());
        if (fleet != null) {
          fleet.breakerListener().onStateChange(b, from, to, reason);
        }
      }
    };
    CircuitBreakers breakers = CircuitBreakers.builder(clock).listener(printer)
        .defaults(CircuitBreakerConfig.builder().cooldown(cooldown).cooldownJitter(0).build()).build();
    // The floor alone (retry_ratio 0): it is what the fleet shares. A share of the traffic is each worker's own,
    // and summed over the workers already the same share of the fleet's calls (docs/FLEET.md).
    TenantRetryBudgets.Builder budgets = TenantRetryBudgets.builder(clock).retriesPerWindow(retriesPerWindow).window(window)
        .ratio(0);
    if (fleet != null) {
      budgets.supply(fleet.retryTokens());
      fleet.watch(breakers);
    }
    HfrFeatures features = HfrFeatures.all().toBuilder().circuitBreaker(withBreakers).build();
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    AtomicInteger stormyOk = new AtomicInteger();
    AtomicInteger stormyFailed = new AtomicInteger();
    AtomicInteger calmOk = new AtomicInteger();
    AtomicInteger calmFailed = new AtomicInteger();
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).features(features).circuitBreakers(breakers)
        .tenantBudgets(budgets.build()).maxRetryAfter(Duration.ofSeconds(2)).build()) {
      // One plain request first, so the HTTP client's start-up (seconds on a loaded machine) is not paid in the storm.
      http.send(HttpRequest.newBuilder(URI.create(base + "/warm")).build(), HttpResponse.BodyHandlers.discarding());
      System.out.println("READY " + worker);
      // the test starts every worker's calls at once, after the slowest JVM is up
      if (!"GO".equals(new java.io.BufferedReader(new java.io.InputStreamReader(System.in)).readLine())) {
        return;
      }
      long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
      List<Thread> threads = new ArrayList<>();
      for (int t = 0; t < 9; t++) {
        boolean calm = t == 8;
        Thread thread = new Thread(() -> {
          while (System.nanoTime() < end) {
            String call = worker + "-" + ids.incrementAndGet();
            String tenant = calm ? "calm" : "stormy";
            try (TaskScope task = hfr.openTask(TaskSpec.builder(tenant, call).build())) {
              hfr.execute(calm ? CALM : LLM, invocation(http, base + (calm ? "/calm" : "/llm"), worker, tenant, call));
              (calm ? calmOk : stormyOk).incrementAndGet();
            } catch (ToolCallException e) {
              (calm ? calmFailed : stormyFailed).incrementAndGet();
            }
            pause(50);
          }
        });
        thread.start();
        threads.add(thread);
      }
      for (Thread thread : threads) {
        thread.join();
      }
    }
    if (fleet != null) {
      fleet.close();
    }
    ds.close();
    System.out.println("COUNTS " + stormyOk + " " + stormyFailed + " " + calmOk + " " + calmFailed);
  }

  static ToolInvocation<String> invocation(HttpClient http, String url, String worker, String tenant, String call) {
    return new ToolInvocation<>() {
      @Override
      public String proceed(String idempotencyKey) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(URI.create(url)).header("X-Worker", worker)
            .header("X-Tenant", tenant).header("X-Call", call).timeout(Duration.ofSeconds(5)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
          throw HttpCallException.of(response);
        }
        return response.body();
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return call;
      }
    };
  }

  private static void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
