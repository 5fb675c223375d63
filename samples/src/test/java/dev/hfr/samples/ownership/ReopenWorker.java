package dev.hfr.samples.ownership;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import java.net.URI;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/**
 * The worker JVM {@link ReopenedTaskTest} kills: opens task {@code trip-9} with default settings on the
 * embedded ledger in {@code args[0]} and sends its two writes at once — the order {@code ref-9} (2 items)
 * and its charge (900 cents) — to the service at {@code args[1]}; it is killed while both are in flight.
 */
public final class ReopenWorker {

  private ReopenWorker() {}

  @SuppressWarnings("try") // the scope binds the task to this thread
  public static void main(String[] args) throws Exception {
    try (Hfr hfr = Hfr.builder().ledgerPath(Path.of(args[0])).build()) {
      OrderDesk desk = OrderDesk_Recovering.create(hfr, URI.create(args[1]));
      try (TaskScope task = hfr.openTask(TaskSpec.builder(OrderTasks.TENANT, "trip-9").build())) {
        CompletableFuture<String> charge = CompletableFuture.supplyAsync(() -> {
          try (AutoCloseable bound = task.bindCurrentThread()) {
            return desk.charge("ref-9", 900, null);
          } catch (Exception e) {
            throw new java.util.concurrent.CompletionException(e);
          }
        });
        desk.placeOrder("ref-9", 2);
        charge.join();
        Thread.sleep(60_000); // the test kills this JVM before the task would close
      }
    }
  }
}
