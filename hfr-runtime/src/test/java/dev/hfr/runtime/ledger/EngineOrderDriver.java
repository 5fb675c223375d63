package dev.hfr.runtime.ledger;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The process the kill test kills: places orders 0..n-1 through the order service with the real engine
 * ({@link Hfr}) on the ledger under test, one task per order, and is restarted from the top after each
 * kill — a re-run task produces the same keys, so the engine finds its earlier ledger records.
 *
 * <p>The tools are hand-written {@link ToolInvocation}s, as the annotation processor would generate them:
 * even orders call an R1 method (the ledger's key goes in {@code Idempotency-Key}), odd ones an R2 method
 * (no key: only the engine's reconcile step, {@code GET /orders?ref=}, prevents a duplicate). Both declare
 * that reconcile method. Everything else is the engine's: crash resume on start (PREPARED records of the
 * killed run become UNKNOWN), prepare before the first attempt, reconcile before any retry of an unknown
 * write, never re-executing a committed one. A call the engine ends without a result (escalated because
 * the service could not be asked, or the key still leased by the killed run) is run again as the task's
 * re-run would be, after a pause; bounded.
 *
 * <p>Four threads place the orders (thread {@code t} takes {@code i ≡ t mod 4}), as the tasks of one
 * agent process would.
 */
public final class EngineOrderDriver {

  static final String TENANT = "shop";
  static final int WORKERS = 4;
  static final Duration LEASE_TTL = Duration.ofMillis(500);

  static final ToolDescriptor CREATE_R1 = ToolDescriptor.builder("dev.hfr.shop.Orders", "createR1", Risk.R1)
      .parameters("ref", "idempotencyKey").idempotencyKeyParameter(1).reconcile("findOrder").build();
  static final ToolDescriptor CREATE_R2 = ToolDescriptor.builder("dev.hfr.shop.Orders", "createR2", Risk.R2)
      .parameters("ref").reconcile("findOrder").build();

  private final Hfr hfr;
  private final OrderServiceClient orders;
  private final AtomicInteger reruns = new AtomicInteger();

  private EngineOrderDriver(Hfr hfr, int port) {
    this.hfr = hfr;
    this.orders = new OrderServiceClient(port);
  }

  static String ref(int i) {
    return "order-" + i;
  }

  static ToolDescriptor tool(int i) {
    return i % 2 == 0 ? CREATE_R1 : CREATE_R2;
  }

  static String taskId(int i) {
    return "order-task-" + i;
  }

  /** The ledger key the engine derives for order {@code i}: its task's first (and only) step. */
  static String key(int i) {
    return IdempotencyKeys.key(TENANT, taskId(i), tool(i).name(), List.of(ref(i)), 0);
  }

  /** Arguments: embedded DIR | postgres JDBC_URL, then port, number of orders and the decisions file. */
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[2]);
    int orders = Integer.parseInt(args[3]);
    Path decisions = Path.of(args[4]);
    if (args[0].equals("embedded")) {
      try (IdempotencyLedger ledger = EmbeddedFileLedger.open(Path.of(args[1]))) {
        run(ledger, port, orders, decisions);
      }
    } else {
      try (HikariDataSource ds = PostgresLedgerTest.pool(args[1], WORKERS); IdempotencyLedger ledger = PostgresLedger.create(ds)) {
        run(ledger, port, orders, decisions);
      }
    }
  }

  private static void run(IdempotencyLedger ledger, int port, int orders, Path decisions) throws Exception {
    int abandoned = ledger.pending().size();
    try (Hfr hfr = Hfr.builder().ledger(ledger).leaseTtl(LEASE_TTL).decisionSink(JsonLinesDecisionSink.open(decisions)).build()) {
      System.out.println("RESUMED " + abandoned + " after " + java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
      EngineOrderDriver driver = new EngineOrderDriver(hfr, port);
      long start = System.nanoTime();
      ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < WORKERS; w++) {
          int first = w;
          done.add(workers.submit(() -> {
            for (int i = first; i < orders; i += WORKERS) {
              driver.place(i);
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
      System.out.println("RERUNS " + driver.reruns.get());
      System.out.println("DONE in " + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + " ms");
    }
  }

  @SuppressWarnings("try") // the open scope binds the task to this thread; the body need not name it
  private void place(int i) throws InterruptedException {
    for (int run = 0; run < 40; run++) {
      try (TaskScope task = hfr.openTask(TaskSpec.builder(TENANT, taskId(i)).build())) {
        hfr.execute(tool(i), invocation(i));
        return;
      } catch (ToolCallException e) {
        System.out.println("RERUN " + i + " " + e.outcome().status() + " " + e.outcome().reason());
        reruns.incrementAndGet();
        Thread.sleep(LEASE_TTL.toMillis() / 2);
      }
    }
    System.out.println("GAVE UP " + i);
    System.exit(3);
  }

  private ToolInvocation<String> invocation(int i) {
    boolean r1 = i % 2 == 0;
    return new ToolInvocation<>() {
      @Override
      public String proceed(String idempotencyKey) throws Exception {
        return r1 ? orders.place("/r1/orders", ref(i), idempotencyKey) : orders.place("/r2/orders", ref(i), null);
      }

      @Override
      public int argumentCount() {
        return r1 ? 2 : 1;
      }

      @Override
      public Object argument(int index) {
        return index == 0 ? ref(i) : null;
      }

      @Override
      public Optional<String> reconcile() throws Exception {
        return orders.find(ref(i));
      }
    };
  }
}
