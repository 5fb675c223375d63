package dev.hfr.samples.ownership;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A restarted agent rarely repeats its plan call for call. The re-run of a finished task reads something
 * first and places its two orders in the other order; the writes' keys count (tool, arguments)
 * occurrences, not calls, so each write finds its ledger record and nothing is sent twice.
 */
@DisplayName("A replay with an extra read and two writes swapped sends nothing twice")
class ReplanningReplayTest {

  @TempDir Path tmp;

  @Test
  @DisplayName("orders and charge of the first run are found by the re-planned re-run: 0 duplicates")
  @SuppressWarnings("try") // the scope binds the task to this thread
  void extraReadAndReorderedWrites() throws Exception {
    try (OrderService service = new OrderService(0)) {
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(tmp.resolve("ledger"));
          Hfr hfr = Hfr.builder().ledger(ledger).decisionSink(e -> { }).build()) {
        OrderDesk desk = OrderDesk_Recovering.create(hfr, service.uri());
        try (TaskScope task = hfr.openTask(TaskSpec.builder("shop", "trip-7").build())) {
          desk.placeOrder("ref-a", 1);
          desk.placeOrder("ref-b", 2);
          desk.charge("ref-a", 500, null);
        }
      }
      // The process restarts; the agent re-plans the same task.
      try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(tmp.resolve("ledger"));
          Hfr hfr = Hfr.builder().ledger(ledger).decisionSink(e -> { }).build()) {
        OrderDesk desk = OrderDesk_Recovering.create(hfr, service.uri());
        try (TaskScope task = hfr.openTask(TaskSpec.builder("shop", "trip-7").build())) {
          desk.stock("sku-1");               // an extra read
          desk.placeOrder("ref-b", 2);       // the two orders swapped
          desk.placeOrder("ref-a", 1);
          desk.charge("ref-a", 500, null);
        }
      }
      Map<String, Integer> orders = service.orders();
      Map<String, Integer> charges = service.charges();
      System.out.println("replay: orders=" + orders + " charges=" + charges);
      assertThat(orders).containsExactlyInAnyOrderEntriesOf(Map.of("ref-a", 1, "ref-b", 1));
      assertThat(charges).containsExactlyInAnyOrderEntriesOf(Map.of("ref-a", 1));
    }
  }
}
