package dev.hfr.samples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.samples.spring.LoopbackShop.Service;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.EventData;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;

/**
 * The sample as a user runs it: the whole application on a real port, the real OpenAI client against the scripted
 * model, the shop's services failing 30 % of the requests; spans through micrometer-tracing-bridge-otel into
 * OpenTelemetry's in-memory exporter. One application context for all tests (a context takes seconds on two cores).
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "sample.reproduce-on-start=false")
class ShopSampleApplicationTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TestConfiguration
  static class Spans {
    @Bean
    InMemorySpanExporter inMemorySpanExporter() {
      return InMemorySpanExporter.create();
    }
  }

  @LocalServerPort
  int port;

  @Autowired
  InMemorySpanExporter spans;

  @Autowired
  SdkTracerProvider tracerProvider;

  @Autowired
  LoopbackShop shop;

  @BeforeEach
  void forgetEarlierSpans() {
    tracerProvider.forceFlush().join(10, TimeUnit.SECONDS);
    spans.reset();
  }

  @Test
  void twentyConversationsWithHfrLeaveNoDuplicateWhereTheSameConversationsWithoutHfrDo() throws Exception {
    JsonNode r = post("/reproduction?conversations=20", "");
    System.out.println("reproduction: " + r);

    assertThat(r.path("faultRate").asDouble()).isEqualTo(0.30);
    for (Service s : Service.values()) {
      assertThat(r.path("duplicatesWithHfr").path(s.name()).asInt()).as("%s duplicated with HFR", s).isZero();
    }
    int without = 0;
    for (Service s : Service.values()) {
      without += r.path("duplicatesWithoutHfr").path(s.name()).asInt();
    }
    assertThat(without).as("the model calls a failed write again; without a key the service does it again").isPositive();
    assertThat(r.path("retriesByHfr").asInt()).as("faults were injected and absorbed").isPositive();
    int completed = r.path("completedWithHfr").asInt();
    assertThat(completed).as("conversations completed with HFR").isGreaterThanOrEqualTo(15);
    assertThat(r.path("unfinishedWithHfr")).as("a conversation that cannot complete stops at the irreversible e-mail,"
        + " the model told why").hasSize(20 - completed)
        .allSatisfy(a -> assertThat(a.asText()).contains("sendConfirmation").contains("Do not call it again"));
    assertThat(r.path("breakersOpened").asLong()).as("the model's re-calls opened no circuit breaker").isZero();
    assertThat(shop.faults()).isGreaterThan(shop.requests() / 5);
  }

  @Test
  void aConversationOverHttpRunsEachToolCallInItsOwnSpanUnderTheRequest() throws Exception {
    JsonNode c = post("/conversations",
        "{\"message\":\"Order 2 x SKU-42, reference span-1, e-mail ana@example.com\"}");
    assertThat(c.path("withHfr").asBoolean()).isTrue();
    assertThat(c.path("calls").asInt()).as("four tool calls and five model requests, at least").isGreaterThanOrEqualTo(9);

    tracerProvider.forceFlush().join(10, TimeUnit.SECONDS);
    List<SpanData> finished = spans.getFinishedSpanItems();
    List<SpanData> toolSpans = finished.stream().filter(s -> s.getName().startsWith("execute_tool ShopTools.")).toList();
    assertThat(toolSpans).extracting(s -> s.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name")))
        .contains("ShopTools.lookUpProduct", "ShopTools.placeOrder", "ShopTools.chargeCard", "ShopTools.sendConfirmation");
    assertThat(toolSpans).allSatisfy(s -> {
      assertThat(s.getAttributes().get(AttributeKey.stringKey("gen_ai.operation.name"))).isEqualTo("execute_tool");
      assertThat(s.getAttributes().get(AttributeKey.stringKey("hfr.task.id"))).as("the request's own task").startsWith("chat-");
      assertThat(s.getAttributes().get(AttributeKey.stringKey("hfr.tenant"))).isEqualTo("default");
      assertThat(s.getTraceId()).as("one trace: the HTTP request, the model calls, the tools").isEqualTo(serverSpan(finished).getTraceId());
    });
    SpanData order = toolSpans.stream()
        .filter(s -> "ShopTools.placeOrder".equals(s.getAttributes().get(AttributeKey.stringKey("gen_ai.tool.name")))
            && "SUCCESS".equals(s.getAttributes().get(AttributeKey.stringKey("hfr.outcome"))))
        .findFirst().orElseThrow();
    assertThat(order.getAttributes().get(AttributeKey.stringKey("hfr.risk"))).isEqualTo("R2");
    assertThat(order.getAttributes().get(AttributeKey.stringKey("hfr.ledger.state"))).isIn("COMMITTED", "RECONCILED_COMMITTED");
    // a retried call carries its decisions as span events
    toolSpans.stream().filter(s -> "RETRY".equals(s.getAttributes().get(AttributeKey.stringKey("hfr.action")))).forEach(s ->
        assertThat(s.getEvents()).extracting(EventData::getName).anyMatch(n -> n.contains("RETRY")));

    System.out.println(SpanTree.render(finished, serverSpan(finished)));
  }

  @Test
  void theActuatorEndpointShowsTheBreakersAndBudgetsOfTheShopsTools() throws Exception {
    post("/conversations", "{\"message\":\"Order 1 x SKU-7, reference act-1, e-mail bo@example.com\"}");

    JsonNode hfr = get("/actuator/hfr");
    assertThat(hfr.path("mode").asText()).isEqualTo("ENFORCE");
    assertThat(hfr.path("breakers").findValuesAsText("name"))
        .contains("default:ShopTools.lookUpProduct", "default:ShopTools.placeOrder", "default:ShopTools.chargeCard",
            "default:ShopTools.sendConfirmation");
    assertThat(hfr.path("budgets").path("tenants").findValuesAsText("tenant")).contains("default");
    assertThat(hfr.has("escalations")).isTrue();
    assertThat(hfr.has("resumable")).isTrue();

    JsonNode health = get("/actuator/health");
    assertThat(health.path("components").path("hfr").path("status").asText()).isEqualTo("UP");
    JsonNode meter = get("/actuator/metrics/hfr.tool.call");
    assertThat(meter.path("availableTags").findValuesAsText("tag")).contains("gen_ai.tool.name", "hfr.risk", "hfr.outcome")
        .doesNotContain("hfr.task.id", "hfr.tenant");
  }

  private static SpanData serverSpan(List<SpanData> finished) {
    return finished.stream().filter(s -> s.getName().startsWith("http post")).findFirst().orElseThrow(
        () -> new AssertionError("no HTTP server span among " + finished.stream().map(SpanData::getName).toList()));
  }

  private JsonNode post(String path, String json) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
        .header("content-type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }

  private JsonNode get(String path) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path)).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).as(r.body()).isEqualTo(200);
    return JSON.readTree(r.body());
  }
}
