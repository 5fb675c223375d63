package dev.hfr.samples.ownership;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.PostgresLedger;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The worker JVM the kill test kills: the engine with <b>default settings</b> on the ledger under test,
 * running multi-step tasks whose two writes run concurrently (the order on the task's thread, the charge
 * on a pool thread bound to the task). After every restart it calls {@link Hfr#resumePending()} and works
 * through the job again: finished tasks are answered from the ledger, interrupted ones reconcile their
 * unfinished writes before anything else. Prints {@code FIRST_RESUMED_CALL <ms>} — JVM uptime when the
 * engine first acted on a write the killed run left unfinished — and {@code DONE} at the end.
 */
public final class KillWorker {

  private KillWorker() {}

  /** Arguments: embedded DIR | postgres JDBC_URL, then the order service's URI and the number of tasks. */
  public static void main(String[] args) throws Exception {
    int tasks = Integer.parseInt(args[3]);
    URI service = URI.create(args[2]);
    if (args[0].equals("embedded")) {
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(Path.of(args[1]))) {
        run(ledger, service, tasks);
      }
    } else {
      try (HikariDataSource ds = OneOwnerPerWriteTest.pool(args[1], 8); PostgresLedger ledger = PostgresLedger.create(ds)) {
        run(ledger, service, tasks);
      }
    }
    System.exit(0);
  }

  private static void run(IdempotencyLedger ledger, URI service, int tasks) throws Exception {
    Set<String> unfinished = ledger.pending().stream().map(LedgerRecord::key).collect(Collectors.toSet());
    AtomicBoolean resumed = new AtomicBoolean(unfinished.isEmpty());
    try (Hfr hfr = Hfr.builder().ledger(ledger).decisionSink(e -> {
      if (e.ledgerKey() != null && unfinished.contains(e.ledgerKey()) && resumed.compareAndSet(false, true)) {
        System.out.println("FIRST_RESUMED_CALL " + ManagementFactory.getRuntimeMXBean().getUptime());
      }
    }).build()) {
      int marked = hfr.resumePending();
      System.out.println("RESUMED unfinished=" + unfinished.size() + " marked-now=" + marked + " at "
          + ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
      OrderDesk desk = OrderDesk_Recovering.create(hfr, service);
      ExecutorService writers = Executors.newFixedThreadPool(8);
      ExecutorService agents = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int a = 0; a < 4; a++) {
          int first = a;
          done.add(agents.submit(() -> {
            for (int i = first; i < tasks; i += 4) {
              runTask(hfr, desk, writers, i);
            }
            return null;
          }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        agents.shutdownNow();
        writers.shutdownNow();
      }
    }
    System.out.println("DONE");
  }

  /** One task, re-run (as its agent would) while a write ends retryable; prints how it ended. */
  @SuppressWarnings("try") // the scope binds the task to this thread
  private static void runTask(Hfr hfr, OrderDesk desk, ExecutorService writers, int i) throws Exception {
    for (int run = 0; run < 5; run++) {
      try (TaskScope task = hfr.openTask(TaskSpec.builder(OrderTasks.TENANT, OrderTasks.taskId(i)).build())) {
        desk.stock("sku-" + (i % 7));
        CompletableFuture<String> charge = CompletableFuture.supplyAsync(() -> {
          try (AutoCloseable bound = task.bindCurrentThread()) {
            return desk.charge(OrderTasks.ref(i), 100L + i, null);
          } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        }, writers);
        desk.placeOrder(OrderTasks.ref(i), 1 + i % 3);
        charge.join();
        System.out.println("TASK " + i + " ok");
        return;
      } catch (ToolCallException | java.util.concurrent.CompletionException e) {
        ToolCallException t = e instanceof ToolCallException tce ? tce
            : e.getCause() instanceof ToolCallException tce ? tce : null;
        if (t == null) {
          throw e;
        }
        if (t.outcome().status() == dev.hfr.runtime.ToolOutcome.Status.ESCALATED || !t.outcome().retryable()) {
          System.out.println("TASK " + i + " " + t.outcome().status() + " " + t.outcome().reason());
          return;
        }
      }
    }
    System.out.println("TASK " + i + " gave-up");
  }
}
