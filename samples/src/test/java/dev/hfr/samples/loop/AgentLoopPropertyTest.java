package dev.hfr.samples.loop;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The agent loop through the user's path — the processor's proxy, the engine, the embedded file ledger and a
 * real faulty service on 127.0.0.1: a scripted model makes six distinct writes in one conversation (two
 * orders R2, two charges R1, two receipts R3), in any order, calls each again as often as it likes, and after
 * a failure calls the same tool again up to three times — the way real models do. The service counts what
 * was applied; whatever the interleaving and the faults, each distinct write is applied at most once.
 * (Without the conversation's task every call is a task of its own, and the same property finds orders
 * placed five times.)
 */
class AgentLoopPropertyTest {

  /** The retry delays shortened so a try takes milliseconds; everything else is the default configuration. */
  private static final String CONFIG = "hfr:\n  retry:\n    base_delay_ms: 5\n    max_delay_ms: 20\n";

  /** The model's distinct writes: what it means to do once each. */
  private static final List<Write> WRITES = List.of(
      shop -> shop.placeOrder("ref-a"),
      shop -> shop.placeOrder("ref-b"),
      shop -> shop.charge("ref-a", 500, null),
      shop -> shop.charge("ref-b", 700, null),
      shop -> shop.sendReceipt("a@example.com"),
      shop -> shop.sendReceipt("b@example.com"));

  /** One tool call the model makes. */
  @FunctionalInterface
  interface Write {
    String call(LoopShop shop) throws Exception;
  }

  @Property(tries = 15)
  @Label("any interleaving of calls and re-calls over faulty services applies each distinct write at most once")
  @SuppressWarnings("try") // the scope binds the conversation's task to this thread
  void eachWriteAtMostOnce(@ForAll("conversations") List<Integer> calls, @ForAll("seeds") long faultSeed,
      @ForAll("reCalls") int reCallsAfterFailure) throws Exception {
    Path dir = Files.createTempDirectory("hfr-loop");
    try (FaultyShop service = new FaultyShop(faultSeed, 0.4);
        EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
        Hfr hfr = Hfr.builder().ledger(ledger).config(HfrConfigLoader.parse(CONFIG, "hfr.yaml"))
            .decisionSink(e -> { }).escalationHandler(new EscalationQueue()).build()) {
      LoopShop shop = LoopShop_Recovering.create(hfr, service.uri());
      try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-" + faultSeed).build())) {
        for (int write : calls) {
          for (int attempt = 0; attempt <= reCallsAfterFailure; attempt++) {
            if (callOnce(shop, WRITES.get(write))) {
              break;
            }
          }
        }
      }
      Map<String, Integer> applied = service.applications();
      assertThat(applied.values()).as("applications per distinct write: %s", applied).allSatisfy(n -> assertThat(n).isLessThanOrEqualTo(1));
    } finally {
      deleteAll(dir);
    }
  }

  /** Whether the call was answered; a failure is what the model sees, and it may call again. */
  private static boolean callOnce(LoopShop shop, Write write) throws Exception {
    try {
      write.call(shop);
      return true;
    } catch (ToolCallException failed) {
      return false;
    }
  }

  @Provide
  Arbitrary<List<Integer>> conversations() {
    return Arbitraries.integers().between(0, WRITES.size() - 1).list().ofMinSize(4).ofMaxSize(12);
  }

  @Provide
  Arbitrary<Long> seeds() {
    return Arbitraries.longs();
  }

  @Provide
  Arbitrary<Integer> reCalls() {
    return Arbitraries.integers().between(0, 3);
  }

  private static void deleteAll(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }
}
