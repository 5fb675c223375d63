package dev.hfr.samples.loop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.CallFailedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.InMemoryLedger;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An irreversible receipt (R3) whose first request is answered with an error, then re-called by the model, through
 * the processor's proxy, the engine with its defaults and a receipt service on loopback that counts what it sent.
 * A 503 says the service did not handle the request (RFC 9110), so the re-call is sent and the receipt goes out
 * once; a 500 may come after the work was done, so the write is unknown and the re-call is not sent.
 */
@DisplayName("A receipt answered 503, then called again")
class ServiceUnavailableReceiptTest {

  private final AtomicInteger requests = new AtomicInteger();
  private final AtomicInteger sent = new AtomicInteger();
  private HttpServer server;

  /** A receipt service whose first request is answered {@code firstStatus}, after sending when {@code sendFirst}. */
  private URI start(int firstStatus, boolean sendFirst) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 16);
    server.createContext("/receipts", exchange -> {
      boolean first = requests.incrementAndGet() == 1;
      int status = first ? firstStatus : 200;
      if (status == 200 || sendFirst) {
        sent.incrementAndGet();
      }
      byte[] body = (status == 200 ? "receipt-" + sent.get() : "{\"error\":{\"type\":\"unavailable\"}}")
          .getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    server.start();
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  @Test
  @DisplayName("a 503 proves nothing was sent: the call fails as retryable and the model's re-call sends the receipt once")
  @SuppressWarnings("try") // the scope binds the conversation's task to this thread
  void unavailableThenReCalled() throws Exception {
    URI service = start(503, false);
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(e -> { }).build()) {
      LoopShop shop = LoopShop_Recovering.create(hfr, service);
      try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-503").build())) {
        assertThatThrownBy(() -> shop.sendReceipt("a@example.com"))
            .isInstanceOf(CallFailedException.class)
            .satisfies(e -> assertThat(((ToolCallException) e).outcome().retryable()).as("retryable").isTrue());
        assertThat(shop.sendReceipt("a@example.com")).isEqualTo("receipt-1");
      }
    }
    assertThat(requests.get()).as("requests").isEqualTo(2);
    assertThat(sent.get()).as("receipts sent").isEqualTo(1);
  }

  @Test
  @DisplayName("a 500 may come after the receipt went out: the write is escalated and the model's re-call is not sent")
  @SuppressWarnings("try")
  void serverErrorThenReCalled() throws Exception {
    URI service = start(500, true);
    try (Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(e -> { })
        .escalationHandler(new EscalationQueue()).build()) {
      LoopShop shop = LoopShop_Recovering.create(hfr, service);
      try (TaskScope conversation = hfr.openTask(TaskSpec.builder("shop", "conversation-500").build())) {
        assertThatThrownBy(() -> shop.sendReceipt("a@example.com")).isInstanceOf(CallEscalatedException.class);
        assertThatThrownBy(() -> shop.sendReceipt("a@example.com"))
            .isInstanceOf(ToolCallException.class)
            .satisfies(e -> assertThat(((ToolCallException) e).outcome().retryable()).as("retryable").isFalse());
      }
    }
    assertThat(requests.get()).as("requests").isEqualTo(1);
    assertThat(sent.get()).as("receipts sent").isEqualTo(1);
  }
}
