package dev.hfr.samples.ownership;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.PendingTask;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.PostgresLedger;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;

/**
 * The worker JVM the kill test kills: the engine with <b>default settings</b> on the ledger under test (but
 * for {@code checkpointTasksAtOpen(true)}: it acknowledges its job list as soon as a task is open),
 * running multi-step tasks whose two writes run concurrently (the order on the task's thread, the charge
 * on a pool thread bound to the task). It works like a worker fed by a queue that does not redeliver: the
 * job's tasks it has started are in a progress file (written after each task's start checkpoint), and
 * after every restart it resumes exactly the tasks {@link Hfr#resumePending()} returns — reopened with
 * their saved spec — then goes on with the job's tasks it never started. A task is never run again from
 * the job's list. Prints {@code PENDING <ids>}, {@code START <i> <job|resume>}, {@code TASK <i> <how it
 * ended>}, {@code FIRST_RESUMED_CALL <ms>} — JVM uptime when the engine first acted on a write the killed
 * run left unfinished — and {@code DONE} at the end.
 */
public final class KillWorker {

  private KillWorker() {}

  /** Arguments: embedded DIR | postgres JDBC_URL, the order service's URI, the number of tasks, the progress file. */
  public static void main(String[] args) throws Exception {
    int tasks = Integer.parseInt(args[3]);
    URI service = URI.create(args[2]);
    Path progress = Path.of(args[4]);
    if (args[0].equals("embedded")) {
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(Path.of(args[1]))) {
        run(ledger, service, tasks, progress);
      }
    } else {
      try (HikariDataSource ds = OneOwnerPerWriteTest.pool(args[1], 8); PostgresLedger ledger = PostgresLedger.create(ds)) {
        run(ledger, service, tasks, progress);
      }
    }
    System.exit(0);
  }

  /** One piece of work: a task to run, with the spec to open it with and where it came from. */
  private record Work(int index, TaskSpec spec, String source) {}

  private static void run(IdempotencyLedger ledger, URI service, int tasks, Path progress) throws Exception {
    Set<String> unfinished = ledger.pending().stream().map(LedgerRecord::key).collect(Collectors.toSet());
    AtomicBoolean resumed = new AtomicBoolean(unfinished.isEmpty());
    // The job's list is acknowledged (the progress file) once a task is open: its start must be in the ledger
    // from then on, not only from its first write, or a task killed before its first write would be lost.
    try (Hfr hfr = Hfr.builder().ledger(ledger).checkpointTasksAtOpen(true).decisionSink(e -> {
      if (e.ledgerKey() != null && unfinished.contains(e.ledgerKey()) && resumed.compareAndSet(false, true)) {
        System.out.println("FIRST_RESUMED_CALL " + ManagementFactory.getRuntimeMXBean().getUptime());
      }
    }).build()) {
      List<PendingTask> pending = hfr.resumePending();
      Queue<Work> work = new ConcurrentLinkedQueue<>();
      Set<Integer> resuming = new HashSet<>();
      for (PendingTask p : pending) {
        int i = Integer.parseInt(p.taskId().substring(p.taskId().lastIndexOf('-') + 1));
        resuming.add(i);
        work.add(new Work(i, p.spec(), "resume"));
      }
      Set<Integer> started = Files.exists(progress)
          ? Files.readAllLines(progress).stream().filter(l -> !l.isBlank()).map(Integer::valueOf).collect(Collectors.toSet())
          : Set.of();
      for (int i = 0; i < tasks; i++) {
        if (!started.contains(i) && !resuming.contains(i)) {
          work.add(new Work(i, TaskSpec.builder(OrderTasks.TENANT, OrderTasks.taskId(i)).build(), "job"));
        }
      }
      System.out.println("PENDING " + resuming.stream().sorted().map(String::valueOf).collect(Collectors.joining(" "))
          + " | unfinished-writes=" + pending.stream().mapToInt(p -> p.unfinishedWrites().size()).sum()
          + " at " + ManagementFactory.getRuntimeMXBean().getUptime() + " ms");
      OrderDesk desk = OrderDesk_Recovering.create(hfr, service);
      ExecutorService writers = Executors.newFixedThreadPool(8);
      ExecutorService agents = Executors.newFixedThreadPool(4);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int a = 0; a < 4; a++) {
          done.add(agents.submit(() -> {
            for (Work w = work.poll(); w != null; w = work.poll()) {
              runTask(hfr, desk, writers, w, progress);
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

  /** Notes that the job's task {@code i} was started, as a queue's acknowledgement would. */
  private static synchronized void markStarted(Path progress, int i) throws IOException {
    Files.writeString(progress, i + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  /** One task, re-run (as its agent would) while a write ends retryable; prints how it ended. */
  @SuppressWarnings("try") // the scope binds the task to this thread
  private static void runTask(Hfr hfr, OrderDesk desk, ExecutorService writers, Work w, Path progress) throws Exception {
    int i = w.index();
    for (int run = 0; run < 5; run++) {
      try (TaskScope task = hfr.openTask(w.spec())) {
        if (run == 0) {
          markStarted(progress, i);
          System.out.println("START " + i + " " + w.source());
        }
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
