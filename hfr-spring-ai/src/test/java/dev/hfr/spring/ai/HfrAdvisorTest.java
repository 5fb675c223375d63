package dev.hfr.spring.ai;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import io.micrometer.observation.ObservationRegistry;
import java.lang.reflect.Method;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.MessageChatMemoryAdvisor;
import org.springframework.ai.chat.client.advisor.ToolCallingAdvisor;
import org.springframework.ai.chat.memory.ChatMemory;
import org.springframework.ai.chat.memory.MessageWindowChatMemory;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.ToolCallingManager;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.support.ToolCallbacks;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.execution.DefaultToolExecutionExceptionProcessor;
import org.springframework.ai.tool.method.MethodToolCallback;
import org.springframework.ai.tool.support.ToolDefinitions;

/**
 * A {@code ChatClient} with {@link HfrAdvisor}, given the tool bean as Spring AI's guide does ({@code
 * defaultTools(tools)}): what a call's task spans, what the model is shown, and what reaches the tools when the model
 * calls them again — through Spring AI's own tool loop, blocking and streamed.
 */
class HfrAdvisorTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String CHARGE = "{\"account\":\"ACC-1\",\"cents\":500}";

  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger(Clock.system())).decisionSink(DecisionSink.discarding())
      .escalationHandler(new EscalationQueue()).sleeper(nanos -> {}).build();
  private final ShopTools tools = ShopTools_Recovering.create(hfr);
  private final ScriptedChatModel model = new ScriptedChatModel();
  private final ChatClient chat = ChatClient.builder(model).defaultAdvisors(HfrAdvisor.of(hfr)).defaultTools(tools).build();

  @AfterEach
  void close() {
    hfr.close();
  }

  @Test
  void aCallIsOneTaskSoTheModelsReCallOfAnEmailOfUnknownOutcomeIsNotSentAgain() {
    tools.mailTimesOut = true;
    model.thenCall("email", "{\"text\":\"Your order shipped\"}")
        .thenCall("email", "{\"text\":\"Your order shipped\"}")
        .thenSay("I could not confirm the e-mail.");

    ChatClientResponse response = chat.prompt().user("Tell the customer").call().chatClientResponse();

    assertThat(tools.emailAttempts).as("the re-call was answered from the ledger").hasValue(1);
    assertThat(model.lastToolResults()).singleElement().asString().contains("\"call_again\":false");
    TaskReport report = (TaskReport) response.context().get(HfrAdvisor.TASK_REPORT);
    assertThat(report.taskId()).as("a task of this one request").startsWith("chat-");
    assertThat(report.calls()).as("both calls of the tool loop, in one task").isEqualTo(2);
  }

  @Test
  void withoutTheAdvisorEachToolCallIsATaskOfItsOwnAndTheReCallIsSent() {
    ChatClient plain = ChatClient.builder(model).defaultTools(tools).build();
    tools.mailTimesOut = true;
    model.thenCall("email", "{\"text\":\"Your order shipped\"}")
        .thenCall("email", "{\"text\":\"Your order shipped\"}")
        .thenSay("I could not confirm the e-mail.");

    plain.prompt().user("Tell the customer").call().content();

    assertThat(tools.emailAttempts).as("what the advisor prevents: a second irreversible e-mail").hasValue(2);
  }

  @Test
  void theModelIsNotShownTheIdempotencyKeyOfABeansToolAndAKeyItMakesUpIsDropped() throws Exception {
    model.thenCall("charge", "{\"account\":\"ACC-1\",\"cents\":500,\"key\":\"made-up\"}").thenSay("Charged.");

    chat.prompt().user("Charge ACC-1 five euros").call().content();

    ToolCallingChatOptions sent = (ToolCallingChatOptions) model.prompts.get(0).getOptions();
    ToolCallback charge = sent.getToolCallbacks().stream()
        .filter(c -> c.getToolDefinition().name().equals("charge")).findFirst().orElseThrow();
    assertThat(charge).isInstanceOf(HfrToolCallback.class);
    assertThat(JSON.readTree(charge.getToolDefinition().inputSchema()).path("properties").fieldNames())
        .toIterable().containsExactlyInAnyOrder("account", "cents");
    assertThat(tools.chargeKeys).singleElement().asString().as("the ledger's key").isNotEqualTo("made-up").hasSize(64);
  }

  @Test
  void aTaskTheCallerOpenedWins() {
    model.thenCall("search", "{\"query\":\"shoes\"}").thenSay("Found shoes.");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "order-42").build())) {
      ChatClientResponse response = chat.prompt().user("Find shoes").call().chatClientResponse();

      assertThat(((TaskReport) response.context().get(HfrAdvisor.TASK_REPORT)).taskId()).isEqualTo("order-42");
      assertThat(task.report().calls()).isEqualTo(1);
    }
  }

  @Test
  void theConversationIdAMemoryAdvisorReadsMakesItsCallsOneTask() {
    ChatMemory memory = MessageWindowChatMemory.builder().build();
    ChatClient remembering = ChatClient.builder(model).defaultAdvisors(HfrAdvisor.of(hfr))
        .defaultAdvisors(MessageChatMemoryAdvisor.builder(memory).build()).defaultTools(tools).build();
    model.thenCall("charge", CHARGE).thenSay("Charged.").thenCall("charge", CHARGE).thenSay("Charged, already.");

    ChatClientResponse first = remembering.prompt().user("Charge ACC-1 five euros")
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-7")).call().chatClientResponse();
    ChatClientResponse second = remembering.prompt().user("Did that work? Charge ACC-1 five euros")
        .advisors(a -> a.param(ChatMemory.CONVERSATION_ID, "c-7")).call().chatClientResponse();

    assertThat(tools.chargeKeys).as("the second turn's charge is the conversation's first").hasSize(1);
    assertThat(model.lastToolResults()).singleElement().asString().contains("\"replayed\":true");
    String taskId = ((TaskReport) first.context().get(HfrAdvisor.TASK_REPORT)).taskId();
    assertThat(taskId).startsWith("conversation-c-7-");
    assertThat(((TaskReport) second.context().get(HfrAdvisor.TASK_REPORT)).taskId()).isEqualTo(taskId);
    assertThat(memory.get("c-7")).as("the memory advisor kept the conversation").isNotEmpty();
  }

  @Test
  void aStreamCarriesItsTaskToTheToolsOnReactorsThreads() {
    model.thenCall("charge", CHARGE).thenCall("charge", CHARGE).thenSay("Charged.");

    String answer = chat.prompt().user("Charge ACC-1 five euros").stream().content().collect(Collectors.joining()).block();

    assertThat(answer).isEqualTo("Charged.");
    assertThat(tools.chargeKeys).as("the streamed re-call is the same write, answered from the ledger").hasSize(1);
    assertThat(model.lastToolResults()).singleElement().asString().contains("\"replayed\":true");
  }

  @Test
  void parallelToolCallsAreAnsweredEachOnItsOwnEvenWhenSpringAiThrowsOnToolErrors() {
    ToolCallingManager throwing = ToolCallingManager.builder()
        .toolExecutionExceptionProcessor(DefaultToolExecutionExceptionProcessor.builder().alwaysThrow(true).build())
        .build();
    ChatClient strict = ChatClient.builder(model, ObservationRegistry.NOOP, null, null,
            ToolCallingAdvisor.builder().toolCallingManager(throwing))
        .defaultAdvisors(HfrAdvisor.of(hfr)).defaultTools(tools).build();
    tools.mailTimesOut = true;
    model.thenCall("email", "{\"text\":\"Your order shipped\"}", "search", "{\"query\":\"shoes\"}", "charge", CHARGE)
        .thenSay("Two of three done.");

    strict.prompt().user("Do all three").call().content();

    List<String> results = model.lastToolResults();
    assertThat(results).hasSize(3);
    assertThat(results.get(0)).contains("\"status\":\"escalated\"");
    assertThat(results.get(1)).contains("3 results for shoes");
    assertThat(results.get(2)).contains("charged 500 to ACC-1");
  }

  @Test
  void aToolTheApplicationNamedItselfKeepsItsNameAndAPlainObjectsToolsStaySpringAis() throws Exception {
    Method charge = ShopTools.class.getMethod("charge", String.class, int.class, String.class);
    ToolCallback named = MethodToolCallback.builder().toolMethod(charge).toolObject(tools)
        .toolDefinition(ToolDefinition.builder().name("charge_customer").description("Charges a customer")
            .inputSchema(ToolDefinitions.from(charge).inputSchema()).build())
        .build();
    ProtectedToolCallbacks protection = HfrAdvisor.of(hfr).tools();

    ToolCallback protectedCharge = protection.protect(named);
    ToolCallback plainTool = protection.protect(ToolCallbacks.from(new ShopTools())[0]);

    assertThat(protectedCharge).isInstanceOf(HfrToolCallback.class);
    assertThat(protectedCharge.getToolDefinition().name()).isEqualTo("charge_customer");
    assertThat(JSON.readTree(protectedCharge.getToolDefinition().inputSchema()).path("properties").has("key")).isFalse();
    assertThat(plainTool).as("no proxy, nothing of HFR's to run: only bound to a stream's task")
        .isInstanceOf(TaskBoundToolCallback.class);
  }
}
