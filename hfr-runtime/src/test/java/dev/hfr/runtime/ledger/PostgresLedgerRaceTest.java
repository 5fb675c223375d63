package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs drive the same keys on one PostgreSQL ledger at the same time. Each worker, on the first lease
 * it gets on every tenth key, stalls past the lease's expiry (a GC pause, a slow network) until the other
 * worker has taken the key over, and only then tries to commit: the ledger must refuse that write by its
 * stale fencing token.
 */
@DisplayName("Race: two JVMs on one PostgreSQL ledger commit each key exactly once; stale tokens are refused")
class PostgresLedgerRaceTest {

  static final int KEYS = 100;
  static final int STALL_EVERY = 10;
  static final String TENANT = "race";

  @TempDir Path tmp;

  @Test
  @DisplayName("each key is committed exactly once across both JVMs, and every stalled holder's late write is refused")
  void twoJvmsRace() throws Exception {
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        HikariDataSource ds = PostgresLedgerTest.pool(pg.getJdbcUrl("postgres", "postgres"), 2)) {
      PostgresLedger.create(ds).close(); // schema in place before the race
      String url = pg.getJdbcUrl("postgres", "postgres");
      Path go = tmp.resolve("go");
      Path logA = tmp.resolve("a.log");
      Path logB = tmp.resolve("b.log");
      Process a = ForkedJvm.start(RaceWorker.class, logA, url, "worker-a", go.toString());
      Process b = ForkedJvm.start(RaceWorker.class, logB, url, "worker-b", go.toString());
      try {
        ForkedJvm.awaitLine(logA, "READY", a);
        ForkedJvm.awaitLine(logB, "READY", b);
        Files.writeString(go, "go");
        assertThat(a.waitFor(80, TimeUnit.SECONDS)).as("worker a finished").isTrue();
        assertThat(b.waitFor(80, TimeUnit.SECONDS)).as("worker b finished").isTrue();
      } finally {
        a.destroyForcibly();
        b.destroyForcibly();
      }
      assertThat(a.exitValue()).as(Files.readString(logA)).isZero();
      assertThat(b.exitValue()).as(Files.readString(logB)).isZero();

      Map<Integer, List<String>> commits = new HashMap<>();
      Map<Integer, List<Long>> committedTokens = new HashMap<>();
      Map<Integer, List<Long>> staleTokens = new HashMap<>();
      for (Path log : List.of(logA, logB)) {
        for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
          String[] f = line.split(" ");
          if (f[0].equals("COMMIT")) {
            commits.computeIfAbsent(Integer.parseInt(f[1]), k -> new ArrayList<>()).add(f[3]);
            committedTokens.computeIfAbsent(Integer.parseInt(f[1]), k -> new ArrayList<>()).add(Long.parseLong(f[2]));
          } else if (f[0].equals("STALE")) {
            staleTokens.computeIfAbsent(Integer.parseInt(f[1]), k -> new ArrayList<>()).add(Long.parseLong(f[2]));
          }
        }
      }
      try (PostgresLedger ledger = PostgresLedger.create(ds)) {
        for (int i = 0; i < KEYS; i++) {
          assertThat(commits.get(i)).as("commits of key %d", i).hasSize(1);
          LedgerRecord r = ledger.find(TENANT, RaceWorker.key(i)).orElseThrow();
          assertThat(r.state()).isEqualTo(LedgerState.COMMITTED);
          assertThat(r.attempts()).as("one attempt ended on key %d", i).isEqualTo(1);
          assertThat(r.resultHash()).isEqualTo(IdempotencyKeys.resultHash(commits.get(i).get(0)));
        }
      }
      for (int i = 0; i < KEYS; i += STALL_EVERY) {
        assertThat(staleTokens.get(i)).as("late writes refused on stalled key %d", i).isNotEmpty();
        long winner = committedTokens.get(i).get(0);
        assertThat(staleTokens.get(i)).allSatisfy(t -> assertThat(t).isLessThan(winner));
      }
      long stale = staleTokens.values().stream().mapToLong(List::size).sum();
      System.out.printf("race: %d keys, %d commits, %d stale writes refused%n",
          KEYS, commits.values().stream().mapToInt(List::size).sum(), stale);
    }
  }

  /**
   * One racing JVM. Output lines: {@code COMMIT key token worker}, {@code STALE key token}, {@code LOST key}
   * (the lease came after the other worker committed), {@code SAW key} (found it committed).
   */
  public static final class RaceWorker {
    static final Duration TTL = Duration.ofMillis(150);

    static String key(int i) {
      return IdempotencyKeys.key(TENANT, "race-task", "Orders.create", List.of("order-" + i), 0);
    }

    public static void main(String[] args) throws Exception {
      String url = args[0];
      String worker = args[1];
      Path go = Path.of(args[2]);
      try (HikariDataSource ds = PostgresLedgerTest.pool(url, 2); PostgresLedger ledger = PostgresLedger.create(ds)) {
        System.out.println("READY");
        while (!Files.exists(go)) {
          Thread.sleep(5);
        }
        for (int i = 0; i < KEYS; i++) {
          drive(ledger, worker, i);
        }
        System.out.println("DONE " + worker);
      }
    }

    private static void drive(PostgresLedger ledger, String worker, int i) throws InterruptedException {
      String k = key(i);
      ledger.prepare(TENANT, k, "Orders.create", IdempotencyKeys.argsHash(List.of("order-" + i)));
      boolean stalled = false;
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
      while (System.nanoTime() < deadline) {
        LedgerRecord r = ledger.find(TENANT, k).orElseThrow();
        if (r.state() == LedgerState.COMMITTED) {
          System.out.println("SAW " + i);
          return;
        }
        Optional<Lease> lease = ledger.acquireLease(TENANT, k, worker, TTL);
        if (lease.isEmpty()) {
          Thread.sleep(2);
          continue;
        }
        long token = lease.get().fencingToken();
        if (i % STALL_EVERY == 0 && !stalled) {
          stalled = true;
          awaitTakeover(ledger, k, token);
        }
        try {
          ledger.transition(TENANT, k, LedgerState.PREPARED, LedgerState.COMMITTED, IdempotencyKeys.resultHash(worker), token);
          System.out.println("COMMIT " + i + " " + token + " " + worker);
          ledger.releaseLease(lease.get());
          return;
        } catch (StaleFencingTokenException e) {
          System.out.println("STALE " + i + " " + token);
        } catch (IllegalLedgerTransitionException e) {
          System.out.println("LOST " + i);
        }
      }
      throw new IllegalStateException("key " + i + " not settled in time");
    }

    /** Holds still past the lease's expiry until someone else has leased the key (bounded). */
    private static void awaitTakeover(PostgresLedger ledger, String k, long token) throws InterruptedException {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (System.nanoTime() < deadline && ledger.find(TENANT, k).orElseThrow().fencingToken() <= token) {
        Thread.sleep(10);
      }
    }
  }
}
