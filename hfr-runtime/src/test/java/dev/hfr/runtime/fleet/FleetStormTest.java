package dev.hfr.runtime.fleet;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Four worker JVMs against one PostgreSQL and a loopback provider that fails for a storm, then recovers: with
 * 429s (with Retry-After) where budgets are measured, with 503s (an outage) where breakers are, since a 429 that
 * says when is pacing, which breakers do not count. The provider counts what reaches it. Timings are scaled down from the (a
 * 20 s storm, a 30 s breaker cooldown) to keep CI short: an 8 s storm in a 24 s run, breakers cooling down for
 * 4 s, tenant budgets over {@value #WINDOW_SECONDS} s windows. The timings are a command away
 * ({@code -Dhfr.storm.seconds=20 -Dhfr.storm.cooldown.seconds=30 -Dhfr.storm.run.seconds=75}); docs/FLEET.md
 * has the tables of both.
 */
@Tag("e2e") // several JVMs or databases: the end-to-end pass (-Pe2e)
@DisplayName("Storm: four worker JVMs share one retry budget and one breaker through PostgreSQL")
class FleetStormTest {

  static final int WORKERS = 4;
  static final int STORM_SECONDS = Integer.getInteger("hfr.storm.seconds", 8);
  static final int RUN_SECONDS = Integer.getInteger("hfr.storm.run.seconds", 24);
  static final int COOLDOWN_SECONDS = Integer.getInteger("hfr.storm.cooldown.seconds", 4);
  static final int LIMIT = 8;
  static final int WINDOW_SECONDS = 30;

  static EmbeddedPostgres postgres;

  @BeforeAll
  static void startPostgres() throws Exception {
    postgres = EmbeddedPostgres.builder().start();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    postgres.close();
  }

  /** What the provider saw in one run. */
  static final class Provider implements AutoCloseable {
    final HttpServer server;
    final List<long[]> stormyRequests = new CopyOnWriteArrayList<>(); // {epochMillis, worker index, call number}
    final Set<String> calls = ConcurrentHashMap.newKeySet();
    final Map<String, Integer> calmOk = new ConcurrentHashMap<>();
    final CountDownLatch stormStarted = new CountDownLatch(1);
    volatile int retries;
    volatile long stormStartsAt;
    volatile long stormEndsAt = Long.MAX_VALUE;

    /**
     * @param outage the storm is an outage (503, nothing said of when) rather than a rate limit (429 with
     *     {@code Retry-After: 1}): a 429 that says when is pacing, which breakers leave to the retry's wait
     */
    Provider(boolean outage) throws Exception {
      server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 64);
      server.createContext("/llm", exchange -> {
        long now = System.currentTimeMillis();
        String worker = exchange.getRequestHeaders().getFirst("X-Worker");
        String call = exchange.getRequestHeaders().getFirst("X-Call");
        synchronized (this) {
          if (stormStartsAt == 0) {
            // The storm starts with the first request, not with GO: on a loaded machine a worker's first request
            // can come seconds after GO, and a storm timed from GO could end before anyone saw it.
            stormStartsAt = now;
            stormEndsAt = now + STORM_SECONDS * 1000L;
            stormStarted.countDown();
          }
          if (!calls.add(call) && now < stormEndsAt) {
            retries++;
          }
        }
        stormyRequests.add(new long[] {now, Long.parseLong(worker.substring(1)), Long.parseLong(call.substring(call.indexOf('-') + 1))});
        boolean storm = now < stormEndsAt;
        String error = outage ? "{\"error\":{\"type\":\"overloaded_error\"}}" : "{\"error\":{\"type\":\"rate_limit_error\"}}";
        byte[] body = (storm ? error : "ok").getBytes(StandardCharsets.UTF_8);
        if (storm && !outage) {
          exchange.getResponseHeaders().add("Retry-After", "1");
        }
        exchange.sendResponseHeaders(!storm ? 200 : outage ? 503 : 429, body.length);
        exchange.getResponseBody().write(body);
        exchange.close();
      });
      server.createContext("/warm", exchange -> {
        exchange.sendResponseHeaders(204, -1);
        exchange.close();
      });
      server.createContext("/calm", exchange -> {
        calmOk.merge(exchange.getRequestHeaders().getFirst("X-Worker"), 1, Integer::sum);
        exchange.sendResponseHeaders(200, 2);
        exchange.getResponseBody().write("ok".getBytes(StandardCharsets.UTF_8));
        exchange.close();
      });
      server.start();
    }

    int port() {
      return server.getAddress().getPort();
    }

    /**
     * Requests of {@code worker}'s calls numbered above {@code callsStarted} that arrived before {@code untilMillis}:
     * calls it started after its breaker opened, let through while it should still have been open.
     */
    long requestsOfCallsStartedAfter(int worker, long callsStarted, long untilMillis) {
      return stormyRequests.stream().filter(r -> r[1] == worker && r[2] > callsStarted && r[0] < untilMillis).count();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }

  /** What one run measured. */
  record Run(String mode, String breakers, int retriesInStorm, int windowsTouched, long firstOpenMillis,
      List<Long> othersOpenAfterMillis, List<String> othersOpenedBecause, long requestsOfCallsStartedWhileOpen,
      long stormyOkAfterStorm, List<String> counts, int killed) {}

  /** A worker's first breaker opening: when, why, and how many calls it had started by then. */
  record Opening(long atMillis, String reason, long callsStarted) {
    /** Parses the worker's {@code BREAKER <millis> <breaker> OPEN <reason> <calls started>} line. */
    static Opening parse(String line) {
      String[] f = line.split(" ");
      return new Opening(Long.parseLong(f[1]), f[4], Long.parseLong(f[5]));
    }
  }

  private Run storm(String mode, String breakers, boolean killOne) throws Exception {
    try (Provider provider = new Provider(breakers.equals("breakers"))) {
      List<Process> workers = new ArrayList<>();
      List<List<String>> outputs = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
            "-cp", System.getProperty("java.class.path"), FleetWorker.class.getName(),
            postgres.getJdbcUrl("postgres", "postgres"), String.valueOf(provider.port()), "w" + w, mode, breakers,
            String.valueOf(RUN_SECONDS), String.valueOf(LIMIT), String.valueOf(WINDOW_SECONDS), String.valueOf(COOLDOWN_SECONDS));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        List<String> lines = new CopyOnWriteArrayList<>();
        Thread reader = new Thread(() -> {
          try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
              lines.add(line);
            }
          } catch (Exception ignored) {
            // the process was killed
          }
        });
        reader.setDaemon(true);
        reader.start();
        workers.add(p);
        outputs.add(lines);
      }
      for (List<String> lines : outputs) {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(180);
        while (lines.stream().noneMatch(l -> l.startsWith("READY")) && System.nanoTime() < until) {
          Thread.sleep(50);
        }
        assertThat(lines).as("worker started").anyMatch(l -> l.startsWith("READY"));
      }
      for (Process p : workers) {
        p.getOutputStream().write("GO\n".getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().flush();
      }
      assertThat(provider.stormStarted.await(RUN_SECONDS, TimeUnit.SECONDS)).as("a worker's first request").isTrue();
      long start = provider.stormStartsAt;
      long stormEnds = provider.stormEndsAt;
      int killed = 0;
      if (killOne) {
        Thread.sleep(Math.max(0, start + STORM_SECONDS * 500L - System.currentTimeMillis()));
        workers.get(WORKERS - 1).destroyForcibly();
        killed = 1;
      }
      for (Process p : workers) {
        assertThat(p.waitFor(RUN_SECONDS + 60, TimeUnit.SECONDS)).isTrue();
      }
      Thread.sleep(200);

      long firstOpen = Long.MAX_VALUE;
      int firstWorker = -1;
      List<Opening> openings = new ArrayList<>();
      List<String> counts = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        Opening opening = outputs.get(w).stream().filter(l -> l.startsWith("BREAKER") && l.contains("Llm.complete OPEN"))
            .findFirst().map(Opening::parse).orElse(null);
        openings.add(opening);
        if (opening != null && opening.atMillis() < firstOpen) {
          firstOpen = opening.atMillis();
          firstWorker = w;
        }
        outputs.get(w).stream().filter(l -> l.startsWith("COUNTS")).forEach(counts::add);
        System.out.println("STORM w" + w + " " + outputs.get(w).stream().filter(l -> l.startsWith("BREAKER")).limit(4).toList());
      }
      List<Long> othersAfter = new ArrayList<>();
      List<String> othersReasons = new ArrayList<>();
      long laterCallsWhileOpen = 0;
      for (int w = 0; w < WORKERS; w++) {
        if (killOne && w == WORKERS - 1) {
          continue;
        }
        Opening opening = openings.get(w);
        if (w != firstWorker && firstOpen != Long.MAX_VALUE) {
          othersAfter.add(opening == null ? -1 : opening.atMillis() - firstOpen);
          othersReasons.add(opening == null ? "never" : opening.reason());
        }
        if (opening != null) {
          laterCallsWhileOpen += provider.requestsOfCallsStartedAfter(w, opening.callsStarted(), firstOpen + COOLDOWN_SECONDS * 1_000L);
        }
      }
      long okAfter = provider.stormyRequests.stream().filter(r -> r[0] >= stormEnds).count();
      int windows = (int) ((stormEnds / 1000 / WINDOW_SECONDS) - (start / 1000 / WINDOW_SECONDS)) + 1;
      Run run = new Run(mode, breakers, provider.retries, windows, firstOpen == Long.MAX_VALUE ? -1 : firstOpen - start,
          othersAfter, othersReasons, laterCallsWhileOpen, okAfter, counts, killed);
      System.out.println("STORM " + run);
      return run;
    }
  }

  @Test
  @DisplayName("budgets alone: the fleet's retries stay within one budget, local budgets allow one per worker")
  void theFleetBudgetHolds() throws Exception {
    Run local = storm("local", "nobreakers", false);
    Run fleet = storm("fleet", "nobreakers", true);

    assertThat(fleet.retriesInStorm()).as("fleet retries during the storm").isLessThanOrEqualTo((int) (LIMIT * fleet.windowsTouched() * 1.1));
    assertThat(local.retriesInStorm()).as("local budgets allow each worker its own").isGreaterThan(LIMIT * local.windowsTouched());
  }

  /**
   * What "the others stop" means here, judged by events rather than by the wall clock: every other worker's breaker
   * opens while the fleet's is still open (before the first worker's cooldown ends — later, the fleet's breaker would
   * have stopped no one), and no call a worker starts after its breaker opened reaches the provider before that
   * cooldown ends (calls are numbered as they start; the worker prints the number at the opening, so a request
   * already on its way is told apart from one let through). How soon the others hear of it is printed
   * ({@code othersOpenAfterMillis}: 0.01–0.13 s in the run docs/FLEET.md shows) but not asserted:
   * across six processes on a loaded 2-core machine it measures the scheduler (2.9–3.3 s at load 50). The fleet's own
   * propagation bound is asserted where one JVM measures it, {@code FleetTest.oneWorkersBreakerIsEveryWorkersBreaker}.
   */
  @Test
  @DisplayName("breakers: once one worker's opens, the others open before its cooldown ends and start no call while open; all resume after the storm")
  void theFleetBreakerStopsEveryone() throws Exception {
    Run fleet = storm("fleet", "breakers", false);
    Run local = storm("local", "breakers", false);

    assertThat(fleet.firstOpenMillis()).as("a breaker opened").isNotNegative();
    assertThat(fleet.othersOpenAfterMillis()).as("the others' breakers open while the fleet's is open (" + fleet.othersOpenedBecause() + ")")
        .allSatisfy(d -> assertThat(d).isBetween(0L, COOLDOWN_SECONDS * 1_000L));
    assertThat(fleet.requestsOfCallsStartedWhileOpen()).as("requests of calls started after the worker's breaker opened, before the fleet's cooldown ended").isZero();
    assertThat(fleet.stormyOkAfterStorm()).as("calls resume after the storm").isPositive();
    assertThat(fleet.counts()).hasSize(WORKERS);
    for (String counts : fleet.counts()) {
      String[] c = counts.split(" ");
      assertThat(Integer.parseInt(c[3])).as("calm tenant's successes: " + counts).isPositive();
      assertThat(Integer.parseInt(c[4])).as("calm tenant's failures: " + counts).isZero();
    }
    System.out.println("local breakers for comparison: " + local);
  }
}
