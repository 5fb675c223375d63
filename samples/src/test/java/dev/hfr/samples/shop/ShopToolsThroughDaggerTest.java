package dev.hfr.samples.shop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.JsonLinesDecisionSink;
import dev.hfr.samples.services.InjectedFault;
import dev.hfr.samples.services.ShopServices;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The generated proxy, injected by Dagger, against real HTTP services on 127.0.0.1 that inject faults on
 * the wire: what the services saw is the evidence of what HFR did.
 */
class ShopToolsThroughDaggerTest {

  private ShopServices services;
  private Hfr hfr;
  private ShopTools tools;
  private TaskScope task;

  @BeforeEach
  void start(@TempDir Path dir) throws Exception {
    services = ShopServices.start();
    hfr = Hfr.builder()
        .ledger(new InMemoryLedger())
        .decisionSink(JsonLinesDecisionSink.open(dir.resolve("decisions.jsonl")))
        .seed(7)
        .build();
    tools = DaggerShopComponent.factory().create(hfr, new ShopApi(services.baseUri(), Duration.ofSeconds(2))).shopTools();
    task = hfr.openTask(TaskSpec.builder("test", "task-1").build());
  }

  @AfterEach
  void stop() {
    task.close();
    hfr.close();
    services.close();
  }

  @Test
  @DisplayName("Dagger hands out the generated proxy in place of ShopTools")
  void daggerInjectsTheProxy() {
    assertThat(tools.getClass().getName()).isEqualTo("dev.hfr.samples.shop.ShopTools_Recovering");
  }

  @Test
  @DisplayName("a transient failure (503) is retried and the second answer returned")
  void transientFailureIsRetried() throws Exception {
    services.plan("GET /search", InjectedFault.unavailable());

    List<Product> found = tools.search("lamp");

    assertThat(found).extracting(Product::sku).containsExactly("sku-lamp");
    assertThat(services.log()).containsExactly(
        "GET /search?q=lamp -> 503 (injected)",
        "GET /search?q=lamp -> 200 sku-lamp");
    ToolOutcome outcome = task.lastOutcome();
    assertThat(outcome.status()).isEqualTo(ToolOutcome.Status.SUCCESS);
    assertThat(outcome.attempts()).isEqualTo(2);
    assertThat(outcome.degraded()).isFalse();
  }

  @Test
  @DisplayName("the degrade ladder is walked in order: search, then the mirror (L2), then the cache (L4)")
  void degradeLadderIsWalkedInOrder() throws Exception {
    services.plan("GET /search", InjectedFault.notImplemented());
    services.plan("GET /mirror/search", InjectedFault.notImplemented());

    List<Product> found = tools.search("chair");

    assertThat(found).isEqualTo(ShopTools.BESTSELLERS);
    assertThat(services.log()).containsExactly(
        "GET /search?q=chair -> 501 (injected)",
        "GET /mirror/search?q=chair -> 501 (injected)");
    ToolOutcome outcome = task.lastOutcome();
    assertThat(outcome.degraded()).isTrue();
    assertThat(outcome.degradeLevel()).isEqualTo(DegradeLevel.L4);
  }

  @Test
  @DisplayName("the first rung that answers ends the ladder")
  void firstAnsweringRungWins() throws Exception {
    services.plan("GET /search", InjectedFault.notImplemented());

    assertThat(tools.search("desk")).extracting(Product::sku).containsExactly("sku-desk");
    assertThat(services.log()).containsExactly(
        "GET /search?q=desk -> 501 (injected)",
        "GET /mirror/search?q=desk -> 200 sku-desk");
    assertThat(task.lastOutcome().degradeLevel()).isEqualTo(DegradeLevel.L2);
  }

  @Test
  @DisplayName("a write committed whose answer was lost is reconciled, not repeated")
  void lostAnswerIsReconciled() throws Exception {
    // The order's answer comes long after the client gives up; the reconcile query must be answered within the same
    // timeout: 2 s leaves room for a loaded CI machine (2 cores, load 20), where 300 ms was tight.
    ShopTools impatient = DaggerShopComponent.factory()
        .create(hfr, new ShopApi(services.baseUri(), Duration.ofSeconds(2))).shopTools();
    services.plan("POST /orders", InjectedFault.commitThenStall(Duration.ofSeconds(30)));

    Order order = impatient.createOrder("cart-7", "sku-desk", 2);

    assertThat(order.customerRef()).isEqualTo("cart-7");
    assertThat(services.committedOrders()).isEqualTo(1);
    assertThat(services.log()).hasSize(2);
    assertThat(services.log().get(1)).startsWith("GET /orders?ref=cart-7 -> 200 " + order.id());
  }

  @Test
  @DisplayName("an idempotent write is retried after Retry-After with the same key, and charged once")
  void idempotentWriteKeepsItsKey() throws Exception {
    services.plan("POST /payments", InjectedFault.rateLimited(1));

    Receipt receipt = tools.charge("ord-9", 1500, null);

    assertThat(receipt.orderId()).isEqualTo("ord-9");
    assertThat(services.committedPayments()).isEqualTo(1);
    List<String> log = services.log();
    assertThat(log).hasSize(2);
    String key = log.get(0).substring(log.get(0).indexOf('['), log.get(0).indexOf(']') + 1);
    assertThat(log.get(1)).contains(key);
  }

  @Test
  @DisplayName("an irreversible write is never retried")
  void irreversibleWriteIsNotRetried() {
    services.plan("POST /emails", InjectedFault.unavailable());

    assertThatThrownBy(() -> tools.sendEmail("ana@example.com", "hello"))
        .isInstanceOfSatisfying(ToolCallException.class,
            e -> assertThat(e.outcome().errorType()).isEqualTo(Fault.T1));
    assertThat(services.log()).containsExactly("POST /emails -> 503 (injected)");
  }
}
