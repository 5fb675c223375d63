package dev.hfr.runtime.ledger;

import com.zaxxer.hikari.HikariDataSource;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The process the kill test kills: places orders 0..n-1 through the order service, every write guarded
 * by the ledger with the paper's protocol (§4.5), and is restarted from the top after each kill — as a
 * re-run task would be, producing the same keys.
 *
 * <ol>
 *   <li>Crash resume: every PREPARED record left by a killed run becomes UNKNOWN (an attempt may have
 *       reached the service).
 *   <li>Per order: prepare the key (a re-run finds the old record). COMMITTED or RECONCILED_COMMITTED:
 *       done, the tool is not called. PREPARED: call once; an answer → COMMITTED, a dropped connection or
 *       timeout → UNKNOWN. UNKNOWN: reconcile — an R2 write with the service's query ({@code GET
 *       /orders?ref=}) → RECONCILED_COMMITTED or RECONCILED_ABSENT; an R1 write by sending it again with the
 *       same key (the service deduplicates) → RECONCILED_COMMITTED; no answer stays UNKNOWN (asked again,
 *       bounded). FAILED or
 *       RECONCILED_ABSENT: PREPARED again, the same key.
 * </ol>
 *
 * Four threads place the orders (thread {@code t} takes {@code i ≡ t mod 4}), as the tasks of one agent
 * process would. Even orders are R1 writes (the key goes in {@code Idempotency-Key}); odd ones R2 writes (no key: only
 * reconciliation prevents a duplicate).
 */
public final class OrderDriver {

  static final String TENANT = "shop";
  static final String TASK = "kill-task";
  /** Orders placed concurrently, as several agent tasks of one process would. */
  static final int WORKERS = 4;

  private final IdempotencyLedger ledger;
  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();
  private final String base;

  private OrderDriver(IdempotencyLedger ledger, int port) {
    this.ledger = ledger;
    this.base = "http://127.0.0.1:" + port;
  }

  static String ref(int i) {
    return "order-" + i;
  }

  static String tool(int i) {
    return i % 2 == 0 ? "Orders.createR1" : "Orders.createR2";
  }

  static String key(int i) {
    return IdempotencyKeys.key(TENANT, TASK, i, tool(i), List.of(ref(i)));
  }

  /** Arguments: embedded DIR | postgres JDBC_URL, then port and number of orders. */
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[2]);
    int orders = Integer.parseInt(args[3]);
    if (args[0].equals("embedded")) {
      try (IdempotencyLedger ledger = EmbeddedFileLedger.open(Path.of(args[1]))) {
        new OrderDriver(ledger, port).run(orders);
      }
    } else {
      try (HikariDataSource ds = PostgresLedgerTest.pool(args[1], OrderDriver.WORKERS); IdempotencyLedger ledger = PostgresLedger.create(ds)) {
        new OrderDriver(ledger, port).run(orders);
      }
    }
  }

  private void run(int orders) throws Exception {
    int resumed = 0;
    for (LedgerRecord r : ledger.pending()) {
      if (r.state() == LedgerState.PREPARED) {
        ledger.transition(r.tenant(), r.key(), LedgerState.PREPARED, LedgerState.UNKNOWN, null, r.fencingToken());
        resumed++;
      }
    }
    long start = System.nanoTime();
    System.out.println("RESUMED " + resumed + " after " + uptimeMillis() + " ms");
    ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < WORKERS; w++) {
        int first = w;
        done.add(workers.submit(() -> {
          for (int i = first; i < orders; i += WORKERS) {
            place(i);
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      workers.shutdownNow();
    }
    System.out.println("DONE in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
  }

  private static long uptimeMillis() {
    return java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
  }

  private void place(int i) throws Exception {
    String key = key(i);
    LedgerRecord r = ledger.prepare(TENANT, key, tool(i), IdempotencyKeys.argsHash(List.of(ref(i))));
    for (int round = 0; round < 50; round++) {
      switch (r.state()) {
        case COMMITTED, RECONCILED_COMMITTED, COMPENSATED -> {
          return;
        }
        case PREPARED -> {
          String result = call(i, key);
          r = result != null
              ? ledger.transition(TENANT, key, LedgerState.PREPARED, LedgerState.COMMITTED, IdempotencyKeys.resultHash(result), 0)
              : ledger.transition(TENANT, key, LedgerState.PREPARED, LedgerState.UNKNOWN, null, 0);
        }
        case UNKNOWN -> {
          Boolean present = i % 2 == 0 ? replayWithSameKey(i, key) : reconcile(i);
          LedgerState next = present == null
              ? LedgerState.UNKNOWN
              : present ? LedgerState.RECONCILED_COMMITTED : LedgerState.RECONCILED_ABSENT;
          r = ledger.transition(TENANT, key, LedgerState.UNKNOWN, next, null, 0);
          System.out.println("RECONCILED " + i + " " + next);
          if (present == null) {
            Thread.sleep(10);
          }
        }
        case FAILED, RECONCILED_ABSENT -> r = ledger.transition(TENANT, key, r.state(), LedgerState.PREPARED, null, 0);
      }
    }
    System.out.println("ESCALATE " + i + " still " + r.state());
    System.exit(3);
  }

  /** One attempt of the write: the result, or null when the outcome is unknown (no answer). */
  private String call(int i, String key) throws InterruptedException {
    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + (i % 2 == 0 ? "/r1/orders" : "/r2/orders")))
        .timeout(Duration.ofSeconds(2))
        .POST(HttpRequest.BodyPublishers.ofString(ref(i)));
    if (i % 2 == 0) {
      req.header("Idempotency-Key", key);
    }
    try {
      HttpResponse<String> resp = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
      if (resp.statusCode() / 100 == 2) {
        return resp.body();
      }
      return null; // the service is fine in this test; anything else is treated as unknown, never as absent
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Reconciles an R1 write (Table 7: retried with the same key): the service answers a repeated key with
   * the order it already created, so the replay itself says "committed" and never creates a second one.
   */
  private Boolean replayWithSameKey(int i, String key) throws InterruptedException {
    return call(i, key) != null ? Boolean.TRUE : null;
  }

  /** The reconcile query of an R2 write: true = committed, false = absent, null = could not tell. */
  private Boolean reconcile(int i) throws InterruptedException {
    try {
      HttpResponse<String> resp = http.send(
          HttpRequest.newBuilder(URI.create(base + "/orders?ref=" + ref(i))).timeout(Duration.ofSeconds(2)).GET().build(),
          HttpResponse.BodyHandlers.ofString());
      if (resp.statusCode() == 200) {
        return true;
      }
      return resp.statusCode() == 404 ? Boolean.FALSE : null;
    } catch (IOException e) {
      return null;
    }
  }
}
