package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.conversation.ConversationTasks;
import dev.hfr.runtime.conversation.EndedConversation;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.memory.ChatMemory;
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
  @DisplayName("the model calling the same charge again in its conversation is answered from the ledger, marked as a replay")
  void theModelsReCallOfAChargeIsAnsweredFromTheLedger() throws Exception {
    String args = "{\"account\":\"ACC-1\",\"cents\":500}";
    ToolContext conversation = new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-44"));
    callback("charge").call(args, conversation);
    JsonNode again = JSON.readTree(callback("charge").call(args, conversation));
    assertThat(tools.chargeKeys).as("the re-call is not sent").hasSize(1);
    assertThat(again.get("replayed").asBoolean()).isTrue();
    assertThat(again.get("result").asText()).contains("charged 500 to ACC-1");
    assertThat(again.get("call_again").asBoolean(true)).isFalse();
  }

  @Test
  @DisplayName("two equal charges the user really wants are two writes when the second has a step of its own")
  void aDistinctStepMakesAnEqualChargeANewWrite() {
    String args = "{\"account\":\"ACC-1\",\"cents\":500}";
    callback("charge").call(args, new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-45", HfrToolCallback.STEP_ID, "turn-1")));
    callback("charge").call(args, new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-45", HfrToolCallback.STEP_ID, "turn-2")));
    assertThat(tools.chargeKeys).hasSize(2).doesNotHaveDuplicates();
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
  @DisplayName("a call whose tool context names a conversation runs in that conversation's task, no scope opened by hand")
  void aConversationIdInTheToolContextIsATask() {
    String args = "{\"account\":\"ACC-1\",\"cents\":500}";
    callback("search").call("{\"query\":\"shoes\"}", new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-41")));
    callback("charge").call(args, new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-41")));
    callback("charge").call(args, new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-42")));

    ConversationTasks conversations = ConversationTasks.of(hfr);
    TaskScope first = conversations.task("c-41").orElseThrow();
    TaskScope second = conversations.task("c-42").orElseThrow();
    assertThat(first.spec().taskId()).startsWith("conversation-c-41-");
    assertThat(first.report().calls()).isEqualTo(2);
    assertThat(second.report().calls()).isEqualTo(1);
    assertThat(tools.chargeKeys).as("two conversations never share a task, nor a key").hasSize(2).doesNotHaveDuplicates();
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("a conversation idle past its timeout ends; its reused id starts a new task and a new write")
  void anIdleConversationEndsAndItsIdStartsFresh() {
    VirtualTime time = new VirtualTime(1_700_000_000_000L);
    List<EndedConversation> ended = new ArrayList<>();
    ConversationTasks conversations = ConversationTasks.builder(hfr).tenant("shop").clock(time)
        .idleTimeout(Duration.ofMinutes(30)).onEnd(ended::add).build();
    ToolCallback charge = Arrays.stream(HfrToolCallbacks.from(conversations, HfrToolCallback.CONVERSATION_ID_FROM_TOOL_CONTEXT,
        tools)).filter(c -> c.getToolDefinition().name().equals("charge")).findFirst().orElseThrow();
    ToolContext user = new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "user-7"));

    charge.call("{\"account\":\"ACC-1\",\"cents\":500}", user);
    String first = conversations.task("user-7").orElseThrow().spec().taskId();
    time.advance(Duration.ofMinutes(31).toNanos());
    charge.call("{\"account\":\"ACC-1\",\"cents\":500}", user);

    assertThat(conversations.task("user-7").orElseThrow().spec().taskId()).isNotEqualTo(first);
    assertThat(ended).singleElement().satisfies(e -> {
      assertThat(e.taskId()).isEqualTo(first);
      assertThat(e.report().calls()).isEqualTo(1);
    });
    assertThat(tools.chargeKeys).hasSize(2).doesNotHaveDuplicates();
  }

  @Test
  @DisplayName("an escalated call tells the model a person was asked and not to call again")
  void anEscalationTellsTheModelNotToCallAgain() throws Exception {
    tools.mailTimesOut = true;
    JsonNode contract = JSON.readTree(callback("email").call("{\"text\":\"Your order shipped\"}",
        new ToolContext(Map.of(ChatMemory.CONVERSATION_ID, "c-43"))));
    assertThat(contract.get("call_again").asBoolean(true)).isFalse();
    assertThat(contract.get("message").asText()).contains("A person was asked").contains("Do not call it again");
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
