package dev.hfr.samples.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.PendingTask;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A worker is killed while its task's order (R2) and charge (R1) are in flight; the service applies both,
 * nobody hears back. The restarted engine lists the task through {@code resumePending()}, and the agent,
 * re-planning, opens it again and places the order with another quantity and charges another amount. The
 * reopened task's order is reconciled before its first send and found; its charge goes out under the key
 * of the unfinished one, which the service deduplicates: one order, one charge.
 */
@DisplayName("A reopened task whose re-plan changes a write's arguments reconciles before sending")
class ReopenedTaskTest {

  @TempDir Path tmp;

  @Test
  @DisplayName("killed mid-write, listed by resumePending, reopened with other arguments: 1 order, 1 charge")
  @SuppressWarnings("try") // the scope binds the task to this thread
  void reopenedWithOtherArguments() throws Exception {
    Path dir = tmp.resolve("ledger");
    try (OrderService service = new OrderService(1_500)) {
      Process worker = Forked.start(ReopenWorker.class, tmp.resolve("worker.log"), dir.toString(), service.uri().toString());
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (service.writes() < 2 && worker.isAlive() && System.nanoTime() < until) {
        Thread.sleep(5);
      }
      assertThat(service.writes()).as("both writes reached the service").isEqualTo(2);
      worker.destroyForcibly(); // SIGKILL, both writes in flight
      worker.waitFor(10, TimeUnit.SECONDS);
      Thread.sleep(2_000); // the service finishes both writes; their answers go nowhere
      assertThat(service.orders()).isEqualTo(Map.of("ref-9", 1));
      assertThat(service.charges()).isEqualTo(Map.of("ref-9", 1));

      List<DecisionEvent> decisions = new CopyOnWriteArrayList<>();
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir);
          Hfr hfr = Hfr.builder().ledger(ledger).decisionSink(decisions::add).build()) {
        List<PendingTask> pending = hfr.resumePending();

        assertThat(pending).singleElement().satisfies(p -> {
          assertThat(p.tenant()).isEqualTo(OrderTasks.TENANT);
          assertThat(p.taskId()).isEqualTo("trip-9");
          assertThat(p.phase()).isEqualTo(TaskCheckpoint.Phase.STARTED);
          assertThat(p.configChanged()).isFalse();
          assertThat(p.unfinishedWrites()).extracting(PendingTask.UnfinishedWrite::state).containsOnly(LedgerState.UNKNOWN);
          assertThat(p.unfinishedWrites()).extracting(PendingTask.UnfinishedWrite::tool)
              .containsExactlyInAnyOrder("OrderDesk.placeOrder", "OrderDesk.charge");
        });

        OrderDesk desk = OrderDesk_Recovering.create(hfr, service.uri());
        String order;
        String charge;
        try (TaskScope task = hfr.openTask(pending.get(0).spec())) {
          order = desk.placeOrder("ref-9", 3);   // re-planned: another quantity
          charge = desk.charge("ref-9", 950, null); // and another amount
        }

        assertThat(order).as("answered by findOrder, not by a second order").isEqualTo("order:ref-9");
        assertThat(charge).as("the service's answer to the unfinished charge's key").startsWith("charge-").endsWith(":ref-9");
        assertThat(decisions).anySatisfy(d -> {
          assertThat(d.tool()).isEqualTo("OrderDesk.placeOrder");
          assertThat(d.action()).isEqualTo(Action.RECONCILE);
          assertThat(d.reason()).isEqualTo(Reason.RESUMED_WRITE);
        });
        assertThat(hfr.resumePending()).as("closed: nothing left to resume").isEmpty();
      }
      assertThat(service.orders()).isEqualTo(Map.of("ref-9", 1));
      assertThat(service.charges()).isEqualTo(Map.of("ref-9", 1));
    }
  }

  @Test
  @DisplayName("a task that closed is not resumed: opening it again with other arguments is new work")
  @SuppressWarnings("try") // the scope binds the task to this thread
  void closedTaskIsNotResumed() throws Exception {
    try (OrderService service = new OrderService(0);
        EmbeddedFileLedger ledger = EmbeddedFileLedger.open(tmp.resolve("ledger"));
        Hfr hfr = Hfr.builder().ledger(ledger).decisionSink(e -> { }).build()) {
      OrderDesk desk = OrderDesk_Recovering.create(hfr, service.uri());
      try (TaskScope task = hfr.openTask(TaskSpec.builder(OrderTasks.TENANT, "trip-10").build())) {
        desk.placeOrder("ref-10", 2);
      }
      try (TaskScope task = hfr.openTask(TaskSpec.builder(OrderTasks.TENANT, "trip-10").build())) {
        desk.placeOrder("ref-10", 2); // the same write: answered from the ledger
        desk.placeOrder("ref-10", 5); // a new one, by the task owner's decision
      }
      assertThat(hfr.resumePending()).isEmpty();
      assertThat(service.orders()).isEqualTo(Map.of("ref-10", 2));
    }
  }
}
