package dev.hfr.inbox.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CallAwaitingApprovalException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.Ledgers;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The standalone server's defaults and its HTTP API, over real HTTP on 127.0.0.1. */
class InboxServerTest {

  private static final String TOKEN = "ops-token-0123456789";
  private final Hfr hfr = Hfr.builder().ledger(Ledgers.inMemory(LedgerOptions.defaults())).build();
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void close() {
    hfr.close();
  }

  @Test
  @DisplayName("never starts open: without an operator, or with a short or shared token, it says what to do")
  void neverOpen() {
    assertThatThrownBy(() -> InboxServer.builder(hfr.inbox()).start())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("never starts open").hasMessageContaining("operator(");
    assertThatThrownBy(() -> InboxServer.builder(hfr.inbox()).operator("ana", "short"))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least 16 characters");
    assertThatThrownBy(() -> InboxServer.builder(hfr.inbox()).operator("ana", TOKEN).operator("bo", TOKEN))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("another operator's token");
  }

  @Test
  @DisplayName("listens on loopback by default")
  void loopbackByDefault() {
    try (InboxServer server = InboxServer.builder(hfr.inbox()).operator("ana", TOKEN).start()) {
      assertThat(server.uri().getHost()).isEqualTo("127.0.0.1");
    }
  }

  @Test
  @DisplayName("the API lists, answers with the operator's name, refuses a second answer (409) and a wrong token (401)")
  void api() throws Exception {
    ToolDescriptor refund = ToolDescriptor.builder("com.acme.Payments", "refund", Risk.R3).parameters("card")
        .resultType(String.class).requiresApproval(true).build();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conv-api").build())) {
      catchThrowableOfType(CallAwaitingApprovalException.class, () -> hfr.execute(refund, new ToolInvocation<String>() {
        @Override
        public String proceed(String key) {
          return "refunded";
        }

        @Override
        public int argumentCount() {
          return 1;
        }

        @Override
        public Object argument(int index) {
          return "4111 1111 1111 1111";
        }
      }));
    }
    String id = hfr.inbox().list().get(0).id();
    try (InboxServer server = InboxServer.builder(hfr.inbox()).operator("ana", TOKEN).start()) {
      URI base = server.uri();
      HttpResponse<String> list = http.send(HttpRequest.newBuilder(base.resolve("/api/items?tool=Payments.refund"))
          .header("Authorization", "Bearer " + TOKEN).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(list.statusCode()).isEqualTo(200);
      assertThat(list.body()).contains("\"id\":\"" + id + "\"").contains("\"kind\":\"approval\"")
          .doesNotContain("4111 1111 1111 1111");

      HttpResponse<String> wrong = post(base, id, "wrong-token-0123456789", "{\"answer\":\"approve\"}");
      assertThat(wrong.statusCode()).isEqualTo(401);
      HttpResponse<String> denied = post(base, id, TOKEN, "{\"answer\":\"deny\",\"reason\":\"refund by hand\"}");
      assertThat(denied.statusCode()).isEqualTo(200);
      assertThat(denied.body()).contains("\"by\":\"ana\"").contains("\"reason\":\"refund by hand\"");
      HttpResponse<String> again = post(base, id, TOKEN, "{\"answer\":\"approve\"}");
      assertThat(again.statusCode()).isEqualTo(409);
      assertThat(again.body()).contains("\"error\":\"conflict\"");
    }
  }

  private HttpResponse<String> post(URI base, String id, String token, String body) throws Exception {
    return http.send(HttpRequest.newBuilder(base.resolve("/api/items/" + id + "/answer"))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
  }
}
