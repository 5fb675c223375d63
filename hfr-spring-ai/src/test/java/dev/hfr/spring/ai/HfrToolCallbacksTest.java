package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;

/** Spring AI's callbacks of @Tool methods, run through HFR: what the model sees and what reaches the services. */
class HfrToolCallbacksTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final EscalationQueue escalations = new EscalationQueue();
  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger(Clock.system())).decisionSink(DecisionSink.discarding())
      .escalationHandler(escalations).sleeper(nanos -> {}).build();
  private final ShopTools tools = ShopTools_Recovering.create(hfr);
  private final ToolCallback[] callbacks = HfrToolCallbacks.from(tools);

  @AfterEach
  void close() {
    hfr.close();
  }

  @Test
  void aFailedReadIsRetriedBeforeTheModelSeesAnything() {
    tools.refuseNext.set(2);
    assertThat(callback("search").call("{\"query\":\"shoes\"}")).contains("3 results for shoes");
    assertThat(tools.searches).hasValue(3);
  }

  @Test
  void theModelIsNotAskedForTheIdempotencyKey() throws Exception {
    JsonNode schema = JSON.readTree(callback("charge").getToolDefinition().inputSchema());
    assertThat(schema.get("properties").fieldNames()).toIterable().containsExactly("account", "cents");
    assertThat(schema.get("required")).extracting(JsonNode::asText).doesNotContain("key");
  }

  @Test
  void theChargeGetsTheLedgerKeyOnEveryAttemptAndAKeyTheModelMakesUpIsDropped() {
    tools.refuseNext.set(1);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-1").build())) {
      assertThat(callback("charge").call("{\"account\":\"ACC-1\",\"cents\":500,\"key\":\"made-up\"}"))
          .contains("charged 500 to ACC-1");
    }
    assertThat(tools.chargeKeys).hasSize(2).allMatch(k -> k.matches("[0-9a-f]{64}"));
    assertThat(tools.chargeKeys.get(1)).isEqualTo(tools.chargeKeys.get(0));
  }

  @Test
  void aStepIdTheCallerBindsKeysTheWriteSoTheModelCallingItAgainInTheTurnIsTheSameWrite() {
    ToolContext turn = new ToolContext(Map.of(HfrToolCallback.STEP_ID, "turn-7"));
    String args = "{\"account\":\"ACC-1\",\"cents\":500}";
    String first;
    String second;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-3").build())) {
      first = callback("charge").call(args, turn);
      second = callback("charge").call(args, turn);
    }
    assertThat(first).contains("charged 500 to ACC-1");
    assertThat(second).contains("charged 500 to ACC-1");
    assertThat(tools.chargeKeys).as("one key for the turn's charge: the payment service charges once")
        .isNotEmpty().allMatch(k -> k.equals(tools.chargeKeys.get(0)));
  }

  @Test
  void withoutAStepIdTheSecondEqualChargeOfATaskIsTheSameWrite() {
    String args = "{\"account\":\"ACC-1\",\"cents\":500}";
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-4").build())) {
      callback("charge").call(args);
      callback("charge").call(args); // the model calling again: answered from the ledger, not charged again
    }
    assertThat(tools.chargeKeys).hasSize(1);
  }

  @Test
  void anEmailOfUnknownOutcomeReachesTheModelAsTheExecutionContract() throws Exception {
    tools.mailTimesOut = true;
    String answer;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "conversation-2").build())) {
      answer = callback("email").call("{\"text\":\"Your order shipped\"}");
    }
    JsonNode contract = JSON.readTree(answer);
    assertThat(contract.get("status").asText()).isEqualTo("escalated");
    assertThat(contract.get("fault").asText()).isEqualTo("T3");
    assertThat(contract.get("retryable").asBoolean()).as("the model must not send it again").isFalse();
    assertThat(contract.get("side_effect").asBoolean()).isTrue();
    assertThat(contract.get("verification_required").asBoolean()).isTrue();
    assertThat(contract.get("tool").asText()).isEqualTo("ShopTools.email");
    assertThat(escalations.size()).isEqualTo(1);
  }

  @Test
  void anObjectThatIsNotAProxyIsRefusedWithTheFix() {
    assertThatThrownBy(() -> HfrToolCallbacks.from(new ShopTools()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("pass the starter's bean or ShopTools_Recovering.create(hfr, ...)");
  }

  private ToolCallback callback(String name) {
    return Arrays.stream(callbacks).filter(c -> c.getToolDefinition().name().equals(name)).findFirst().orElseThrow();
  }
}
