package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.annotations.Fault;
import dev.hfr.junit.HfrAssertions;
import dev.hfr.junit.HfrFaults;
import dev.hfr.junit.InjectFault;
import dev.hfr.junit.InjectedFaults;
import dev.hfr.junit.openai.RecordedRequest;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RecoveryEngine;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.langchain4j.service.AiServices;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@HfrFaults
@DisplayName("HfrTools runs LangChain4j tool calls through HFR and answers the model with the contract")
class HfrToolsTest {

  interface Clerk {
    String chat(String message);
  }

  static final ObjectMapper JSON = new ObjectMapper();
  ScriptedOpenAiServer server;

  @BeforeEach
  void start() {
    server = ScriptedOpenAiServer.start();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  Clerk clerk(Object... tools) {
    return HfrTools.wrap(AiServices.builder(Clerk.class), tools)
        .chatModel(ModelFixtures.openAi(server, "gpt-4o"))
        .build();
  }

  /** The model answers with the last tool result it was sent, so the test sees what the model saw. */
  static Reply echoToolResult() {
    return Reply.from(r -> Reply.text(r.toolResults().get(r.toolResults().size() - 1)));
  }

  JsonNode lastToolResult() throws Exception {
    List<RecordedRequest> requests = server.requests("gpt-4o");
    List<String> results = requests.get(requests.size() - 1).toolResults();
    return JSON.readTree(results.get(results.size() - 1));
  }

  @Test
  @InjectFault(tool = "OrderDesk.placeOrder", call = 1, fault = Fault.T3, commitThenDrop = true)
  @DisplayName("an R2 order that timed out after committing is reconciled and not placed twice")
  void lostOrderAnswerIsReconciled(RecoveryEngine engine, Hfr hfr, InjectedFaults faults, List<DecisionEvent> decisions) {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "placeOrder", "{\"sku\":\"SKU-42\",\"quantity\":2}"), echoToolResult());

    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "order").build())) {
      assertThat(clerk(desk).chat("order 2 x SKU-42")).isEqualTo("ORD-1");
      HfrAssertions.assertThat(task.report()).hasNoDuplicates().escalated(0).succeeded(1);
    }
    assertThat(desk.orders).containsExactly("ORD-1 2xSKU-42");
    assertThat(faults.calls("OrderDesk.placeOrder")).as("the write ran once").isEqualTo(1);
    assertThat(decisions).filteredOn(e -> "OrderDesk.placeOrder".equals(e.tool()))
        .extracting(e -> String.valueOf(e.action())).contains("RECONCILE");
  }

  @Test
  @InjectFault(tool = "OrderDesk.checkStock", call = 1, times = 20, fault = Fault.T1)
  @DisplayName("a read that keeps failing reaches the model as a structured, retryable failure")
  void failedReadReachesTheModelAsTheContract(RecoveryEngine engine, InjectedFaults faults) throws Exception {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "checkStock", "{\"sku\":\"SKU-42\"}"), echoToolResult());

    clerk(desk).chat("how many SKU-42?");

    JsonNode contract = lastToolResult();
    assertThat(contract.path("status").asText()).isEqualTo("failed");
    assertThat(contract.path("fault").asText()).isEqualTo("T1");
    assertThat(contract.path("side_effect").asBoolean()).isFalse();
    assertThat(contract.path("verification_required").asBoolean()).isFalse();
    assertThat(contract.path("tool").asText()).isEqualTo("OrderDesk.checkStock");
    assertThat(contract.has("error_type")).isTrue();
    assertThat(contract.toString()).doesNotContain("Exception", "at dev.");
    assertThat(faults.calls("OrderDesk.checkStock")).isGreaterThan(1);
  }

  @Test
  @InjectFault(tool = "OrderDesk.emailCustomer", call = 1, fault = Fault.T3, commitThenDrop = true)
  @DisplayName("an irreversible tool with a lost answer is not retried; the model is told it may have happened")
  void irreversibleToolIsNotRetried(RecoveryEngine engine, InjectedFaults faults) throws Exception {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "emailCustomer", "{\"text\":\"late\"}"), echoToolResult());

    clerk(desk).chat("tell the customer");

    JsonNode contract = lastToolResult();
    assertThat(contract.path("status").asText()).isNotEqualTo("success");
    assertThat(contract.path("retryable").asBoolean()).isFalse();
    assertThat(contract.path("side_effect").asBoolean()).isTrue();
    assertThat(contract.path("verification_required").asBoolean()).isTrue();
    assertThat(desk.emails).containsExactly("late");
    assertThat(faults.calls("OrderDesk.emailCustomer")).isEqualTo(1);
  }

  @Test
  @DisplayName("arguments the model got wrong come back as a T5 contract; nothing runs")
  void badArgumentsAreAContractMismatch(RecoveryEngine engine, InjectedFaults faults) throws Exception {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "placeOrder", "{\"sku\":\"SKU-42\",\"quantity\":\"many\"}"), echoToolResult());

    clerk(desk).chat("order many");

    JsonNode contract = lastToolResult();
    assertThat(contract.path("error_type").asText()).isEqualTo("invalid_arguments");
    assertThat(contract.path("fault").asText()).isEqualTo("T5");
    assertThat(contract.path("side_effect").asBoolean()).isFalse();
    assertThat(desk.orders).isEmpty();
    assertThat(faults.calls("OrderDesk.placeOrder")).isZero();
  }

  @Test
  @DisplayName("a successful call reaches the model unchanged")
  void successIsUnchanged(RecoveryEngine engine) {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "checkStock", "{\"sku\":\"SKU-42\"}"), echoToolResult());

    assertThat(clerk(desk).chat("how many?")).isEqualTo("17");
  }

  @Test
  @InjectFault(tool = "OrderDesk.price", call = 1, times = 20, fault = Fault.T4)
  @DisplayName("a result from a @Degrade rung reaches the model as the contract, marked degraded")
  void degradedResultIsMarked(RecoveryEngine engine, Hfr hfr) throws Exception {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "price", "{\"sku\":\"SKU-42\"}"), echoToolResult());

    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "price").build())) {
      Clerk clerk = HfrTools.wrap(AiServices.builder(Clerk.class), () -> task, desk)
          .chatModel(ModelFixtures.openAi(server, "gpt-4o"))
          .build();
      clerk.chat("what does SKU-42 cost?");
      HfrAssertions.assertThat(task.report()).succeeded(1);
      assertThat(task.report().degraded()).isEqualTo(1);
    }

    JsonNode contract = lastToolResult();
    assertThat(contract.path("status").asText()).isEqualTo("success");
    assertThat(contract.path("degraded").asBoolean()).isTrue();
    assertThat(contract.path("degrade_level").asText()).isEqualTo("L3");
    assertThat(contract.path("result").asText()).isEqualTo("12.00 EUR");
    assertThat(contract.path("tool").asText()).isEqualTo("OrderDesk.price");
    assertThat(contract.has("error_type")).as("a degraded success has no error type").isFalse();
  }

  @Test
  @DisplayName("an undegraded result in a task reaches the model unchanged")
  void undegradedResultInATaskIsUnchanged(RecoveryEngine engine, Hfr hfr) {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "price", "{\"sku\":\"SKU-42\"}"), echoToolResult());

    try (TaskScope task = hfr.openTask(TaskSpec.builder("test", "price").build())) {
      Clerk clerk = HfrTools.wrap(AiServices.builder(Clerk.class), () -> task, desk)
          .chatModel(ModelFixtures.openAi(server, "gpt-4o"))
          .build();
      assertThat(clerk.chat("what does SKU-42 cost?")).isEqualTo("12.50 EUR");
    }
  }

  @Test
  @DisplayName("the same tools work as a ToolProvider")
  void toolProvider(RecoveryEngine engine) {
    OrderDesk desk = OrderDesk_Recovering.create(engine);
    server.script("gpt-4o", Reply.toolCall("call_1", "placeOrder", "{\"sku\":\"SKU-1\",\"quantity\":1}"), echoToolResult());

    Clerk clerk = AiServices.builder(Clerk.class)
        .chatModel(ModelFixtures.openAi(server, "gpt-4o"))
        .toolProvider(HfrTools.toolProvider(desk))
        .build();

    assertThat(clerk.chat("order one")).isEqualTo("ORD-1");
    assertThat(desk.orders).containsExactly("ORD-1 1xSKU-1");
  }

  @Test
  @DisplayName("an unprotected tool object is refused with the fix in the message")
  void plainObjectIsRefused() {
    assertThatThrownBy(() -> HfrTools.aiServiceTools(new OrderDesk()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("OrderDesk_Recovering.create(hfr, ...)");
  }

  @Test
  @DisplayName("the tool specifications are LangChain4j's own, named after the methods")
  void specificationsAreLangChain4js(RecoveryEngine engine) {
    assertThat(HfrTools.aiServiceTools(OrderDesk_Recovering.create(engine)))
        .extracting(t -> t.toolSpecification().name())
        .containsExactly("checkStock", "emailCustomer", "placeOrder", "price");
  }
}
