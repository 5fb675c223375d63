package dev.hfr.samples.quickstart;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * docs/getting-started/spring.md, run: the page's application, tools, controller and configuration (its code is
 * included from these sources) on the real OpenAI client, against a scripted model and a shop on 127.0.0.1 whose
 * first answer to each request is a 503.
 */
@SpringBootTest(classes = QuickstartApplication.class, properties = "spring.config.location=classpath:quickstart/application.yml")
@DisplayName("The Spring getting-started page's application protects its tools")
class QuickstartTest {

  private static final ScriptedOpenAiServer MODEL = ScriptedOpenAiServer.start();
  private static final AtomicInteger PRODUCT_REQUESTS = new AtomicInteger();
  private static final List<String> PAYMENT_KEYS = new CopyOnWriteArrayList<>();
  private static final HttpServer SHOP = shop();

  @DynamicPropertySource
  static void servers(DynamicPropertyRegistry properties) throws IOException {
    properties.add("spring.ai.openai.base-url", MODEL::baseUrl);
    properties.add("spring.ai.openai.api-key", () -> "scripted-model-needs-no-key");
    properties.add("spring.ai.openai.chat.model", () -> "gpt-4o");
    properties.add("shop.url", () -> "http://127.0.0.1:" + SHOP.getAddress().getPort());
    Path ledger = Files.createTempDirectory("hfr-quickstart-ledger");
    properties.add("hfr.idempotency.path", ledger::toString);
  }

  @AfterAll
  static void stop() {
    SHOP.stop(0);
    MODEL.close();
  }

  @Autowired
  OrderTools tools;

  @Autowired
  AssistantController assistant;

  @Test
  @DisplayName("the tool bean is the generated proxy, and the model's calls are retried, the charge under one key")
  void aConversationsToolCallsRunThroughHfr() {
    MODEL.script("gpt-4o",
        Reply.toolCall("call-1", "lookUpProduct", "{\"sku\":\"SKU-42\"}"),
        Reply.toolCall("call-2", "chargeCard", "{\"order\":\"o-1\",\"cents\":2900}"),
        Reply.text("Charged 2900 cents for o-1."));

    String answer = assistant.chat("c-1", "Buy SKU-42 for order o-1");

    assertThat(tools.getClass().getSimpleName()).isEqualTo("OrderTools_Recovering");
    assertThat(answer).isEqualTo("Charged 2900 cents for o-1.");
    assertThat(PRODUCT_REQUESTS).as("the read: a 503, then retried").hasValue(2);
    assertThat(PAYMENT_KEYS).as("the charge: a 503, then resent under the same key").hasSize(2)
        .allSatisfy(key -> assertThat(key).isNotBlank()).containsOnly(PAYMENT_KEYS.get(0));
    String toolsTheModelSaw = MODEL.requests("gpt-4o").get(0).body().path("tools").toString();
    assertThat(toolsTheModelSaw).contains("lookUpProduct", "chargeCard", "order", "cents").doesNotContain("\"key\"");
  }

  /** The shop: every first request of a path answers 503 (nothing done), the next one succeeds. */
  private static HttpServer shop() {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      server.createContext("/products/", exchange -> answer(exchange,
          PRODUCT_REQUESTS.incrementAndGet() == 1 ? 503 : 200, "{\"sku\":\"SKU-42\",\"price_cents\":2900}"));
      server.createContext("/payments", exchange -> {
        PAYMENT_KEYS.add(String.valueOf(exchange.getRequestHeaders().getFirst("Idempotency-Key")));
        answer(exchange, PAYMENT_KEYS.size() == 1 ? 503 : 200, "{\"charged_cents\":2900}");
      });
      server.start();
      return server;
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the shop on 127.0.0.1", e);
    }
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = (status == 200 ? body : "{\"error\":\"unavailable\"}").getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }
}
