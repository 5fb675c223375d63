package dev.hfr.samples.temporal;

import dev.hfr.runtime.Hfr;
import dev.hfr.samples.temporal.run.OrderRun;
import dev.hfr.samples.temporal.run.WorkerJvms;
import dev.hfr.samples.temporal.run.Workers;
import dev.hfr.samples.temporal.shop.FlakyShop;
import io.temporal.client.WorkflowClient;
import io.temporal.testserver.TestServer;
import io.temporal.worker.WorkerFactory;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The order workflow (search R0 → create order R2 → charge R1 → e-mail R3) on Temporal's own test server, over
 * loopback services that fail at p = 0.3 (a write committed and its answer dropped, a 503, a 429), with
 * Temporal's default retry policy alone and with hfr-temporal: on one worker, during a 429 storm, and on three
 * worker JVMs with one killed by SIGKILL mid-activity (HFR on a shared PostgreSQL ledger and fleet).
 */
public final class TemporalSample {

  private static final int WORKFLOWS = 50;
  private static final double P = 0.3;
  private static final long SEED = 7;
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  private TemporalSample() {}

  public static void main(String[] args) throws Exception {
    Workers.quiet();
    List<String> parts = List.of((args.length == 0 ? "one,storm,three" : String.join(",", args)).split("[,\\s]+"));
    int port = freePort();
    List<OrderRun.Result> results = new ArrayList<>();
    List<String> storm = new ArrayList<>();
    try (TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port, true)) {
      WorkflowClient client = Workers.client(port);
      System.out.printf("Temporal test server on 127.0.0.1:%d; %d workflows per run, services failing at p = %.1f%n",
          port, WORKFLOWS, P);
      if (parts.contains("one")) {
        results.add(oneWorker("one worker, Temporal's retries", client, "plain-1", null, false));
      }
      try (Hfr hfr = Hfr.builder().ledgerPath(Files.createTempDirectory("hfr-temporal-ledger")).build()) {
        if (parts.contains("one")) {
          results.add(oneWorker("one worker, hfr-temporal", client, "hfr-1", hfr, false));
          results.add(oneWorker("one worker, hfr-temporal, retryUnknown", client, "hfr-1r", hfr, true));
        }
        if (parts.contains("storm")) {
          storm.add(storm("Temporal's retries", client, "plain-storm", null));
          storm.add(storm("hfr-temporal", client, "hfr-storm", hfr));
        }
      }
      if (parts.contains("three")) {
        try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
        results.add(threeWorkers("3 worker JVMs, 1 killed, Temporal's", client, port, "plain-3", null));
        results.add(threeWorkers("3 worker JVMs, 1 killed, hfr-temporal", client, port, "hfr-3",
            pg.getJdbcUrl("postgres", "postgres")));
        }
      }
    }
    System.out.println();
    System.out.println(OrderRun.Result.header());
    results.forEach(r -> System.out.println(r.row()));
    System.out.println();
    System.out.println("| 429 storm on payments (8 s, Retry-After: 4), 10 workflows | requests reaching payments during the storm |");
    System.out.println("|------------------------------------------------------------|---------------------------------------------|");
    storm.forEach(System.out::println);
    // Temporal's client and the test server leave non-daemon threads behind.
    System.exit(0);
  }

  private static OrderRun.Result oneWorker(String label, WorkflowClient client, String queue, Hfr hfr,
      boolean retryUnknownOutcomes) throws Exception {
    try (FlakyShop shop = FlakyShop.start(P, SEED)) {
      WorkerFactory worker = Workers.start(client, queue, shop.uri(), "worker-0", hfr, retryUnknownOutcomes);
      try {
        return report(OrderRun.run(label, client, queue, shop, WORKFLOWS, TIMEOUT));
      } finally {
        worker.shutdownNow();
      }
    }
  }

  private static String storm(String label, WorkflowClient client, String queue, Hfr hfr) throws Exception {
    try (FlakyShop shop = FlakyShop.start(0, SEED)) {
      WorkerFactory worker = Workers.start(client, queue, shop.uri(), "worker-0", hfr, false);
      try {
        shop.storm("POST /payments", 8_000, 4);
        OrderRun.Result r = OrderRun.run(label + " (storm)", client, queue, shop, 10, TIMEOUT);
        String row = String.format("| %-58s | %43d |", label + ", " + r.completed() + "/10 done", shop.stormRequests());
        System.out.println(row);
        return row;
      } finally {
        worker.shutdownNow();
      }
    }
  }

  private static OrderRun.Result threeWorkers(String label, WorkflowClient client, int port, String queue,
      String jdbcUrl) throws Exception {
    try (FlakyShop shop = FlakyShop.start(P, SEED);
        WorkerJvms workers = WorkerJvms.start(3, port, shop.uri(), queue, jdbcUrl)) {
      AtomicInteger writes = new AtomicInteger();
      java.util.concurrent.atomic.AtomicBoolean killed = new java.util.concurrent.atomic.AtomicBoolean();
      // The worker that sends the tenth write dies by SIGKILL right after it was committed, before the answer reaches it.
      shop.onWrite((worker, route) -> {
        if (writes.incrementAndGet() == 10 && killed.compareAndSet(false, true)) {
          workers.kill(Integer.parseInt(worker.substring(worker.indexOf('-') + 1)));
          System.out.println("  " + worker + " killed (SIGKILL) after its write " + route + " was committed");
        }
      });
      return report(OrderRun.run(label, client, queue, shop, WORKFLOWS, TIMEOUT));
    }
  }

  private static OrderRun.Result report(OrderRun.Result r) {
    System.out.println(r.row());
    r.questions().forEach((about, n) -> System.out.printf("    asked a person %d x: %s%n", n, about));
    return r;
  }

  private static int freePort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
