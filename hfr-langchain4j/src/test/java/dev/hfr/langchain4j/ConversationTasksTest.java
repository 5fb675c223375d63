package dev.hfr.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.VirtualTime;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import dev.langchain4j.service.tool.ToolExecutor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("ConversationTasks: one HFR task per conversation, never a shared one")
class ConversationTasksTest {

  interface Clerk {
    String chat(@MemoryId String user, @UserMessage String message);
  }

  private final Hfr hfr = Hfr.builder().ledger(new InMemoryLedger()).decisionSink(DecisionSink.discarding()).build();
  private final ExecutorService threads = Executors.newFixedThreadPool(16);

  @AfterEach
  void stop() throws InterruptedException {
    threads.shutdownNow();
    threads.awaitTermination(10, TimeUnit.SECONDS);
    hfr.close();
  }

  @Test
  @DisplayName("two conversations chatting at the same time: each one's tool calls count in its own task")
  void concurrentConversations() throws Exception {
    try (ScriptedOpenAiServer server = ScriptedOpenAiServer.start()) {
      // Whatever the interleaving: a request without a tool result asks for the stock, one with it answers.
      for (int i = 0; i < 4; i++) {
        server.script("gpt-4o", Reply.from(r -> r.toolResults().isEmpty()
            ? Reply.toolCall("call_1", "checkStock", "{\"sku\":\"SKU-42\"}")
            : Reply.text("in stock: " + r.toolResults().get(0))));
      }
      ConversationTasks conversations = ConversationTasks.of(hfr, "shop");
      Clerk clerk = HfrTools.wrap(AiServices.builder(Clerk.class), conversations, OrderDesk_Recovering.create(hfr))
          .chatModel(ModelFixtures.openAi(server, "gpt-4o"))
          .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(10))
          .build();

      CountDownLatch start = new CountDownLatch(1);
      CompletableFuture<String> alice = CompletableFuture.supplyAsync(() -> await(start, () -> clerk.chat("alice", "stock?")), threads);
      CompletableFuture<String> bob = CompletableFuture.supplyAsync(() -> await(start, () -> clerk.chat("bob", "stock?")), threads);
      start.countDown();

      assertThat(alice.get(30, TimeUnit.SECONDS)).isEqualTo("in stock: 17");
      assertThat(bob.get(30, TimeUnit.SECONDS)).isEqualTo("in stock: 17");
      TaskScope aliceTask = conversations.task("alice").orElseThrow();
      TaskScope bobTask = conversations.task("bob").orElseThrow();
      assertThat(aliceTask).isNotSameAs(bobTask);
      assertThat(aliceTask.report().taskId()).startsWith("conversation-alice-");
      assertThat(aliceTask.report().calls()).isEqualTo(1);
      assertThat(bobTask.report().calls()).isEqualTo(1);
      assertThat(hfr.currentTask()).as("no task stays bound to the caller's thread").isEmpty();
    }
  }

  @Test
  @DisplayName("400 tool calls of 8 conversations on 16 threads: each conversation's report counts exactly its own")
  void manyCallsManyThreads() throws Exception {
    // 50 calls of one tool in a row would hit the default limit of 5 same-tool calls: these tasks have none.
    ConversationTasks conversations = ConversationTasks.of(dev.hfr.runtime.conversation.ConversationTasks.builder(hfr)
        .specs((user, taskId) -> TaskSpec.builder("shop", taskId).limits(TaskLimits.unlimited()).build()).build());
    OrderDesk desk = OrderDesk_Recovering.create(hfr);
    ToolExecutor stock = HfrTools.aiServiceTools(conversations, desk).stream()
        .filter(t -> t.name().equals("checkStock")).findFirst().orElseThrow().toolExecutor();
    ToolExecutionRequest request = ToolExecutionRequest.builder().id("c").name("checkStock").arguments("{\"sku\":\"SKU-1\"}").build();

    List<CompletableFuture<String>> calls = new ArrayList<>();
    for (int i = 0; i < 400; i++) {
      String user = "user-" + (i % 8);
      calls.add(CompletableFuture.supplyAsync(
          () -> stock.executeWithContext(request, InvocationContext.builder().chatMemoryId(user).build()).resultText(), threads));
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(60, TimeUnit.SECONDS);

    for (int u = 0; u < 8; u++) {
      TaskScope task = conversations.task("user-" + u).orElseThrow();
      assertThat(task.report().calls()).as("calls of user-%d", u).isEqualTo(50);
      assertThat(task.report().succeeded()).isEqualTo(50);
    }
    assertThat(conversations.end("user-0")).isPresent();
    assertThat(conversations.task("user-0")).as("an ended conversation is forgotten").isEmpty();
  }

  @Test
  @DisplayName("bind(memoryId) makes the conversation's task current for the model's side too")
  void bindForTheModel() throws Exception {
    ConversationTasks conversations = ConversationTasks.of(hfr, "shop");
    try (AutoCloseable bound = conversations.bind("carol")) {
      assertThat(hfr.currentTask()).containsSame(conversations.task("carol").orElseThrow());
    }
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("HfrTools.wrap with no resolver: each memory id is a task of the proxies' engine, no scope opened by hand")
  void conversationsAreTasksByDefault() {
    ToolExecutor stock = HfrTools.aiServiceTools(OrderDesk_Recovering.create(hfr)).stream()
        .filter(t -> t.name().equals("checkStock")).findFirst().orElseThrow().toolExecutor();
    ToolExecutionRequest request = ToolExecutionRequest.builder().id("c").name("checkStock").arguments("{\"sku\":\"SKU-1\"}").build();

    stock.executeWithContext(request, InvocationContext.builder().chatMemoryId("dana").build());
    stock.executeWithContext(request, InvocationContext.builder().chatMemoryId("erik").build());
    stock.executeWithContext(request, InvocationContext.builder().chatMemoryId("dana").build());

    dev.hfr.runtime.conversation.ConversationTasks defaults = dev.hfr.runtime.conversation.ConversationTasks.of(hfr);
    TaskScope dana = defaults.task("dana").orElseThrow();
    TaskScope erik = defaults.task("erik").orElseThrow();
    assertThat(dana.spec().taskId()).startsWith("conversation-dana-");
    assertThat(dana.report().calls()).isEqualTo(2);
    assertThat(erik.report().calls()).isEqualTo(1);
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("a memory id reused after the idle timeout (a user id) starts a new task, not last week's")
  void aReusedMemoryIdStartsFreshAfterTheIdleTimeout() {
    VirtualTime time = new VirtualTime(1_700_000_000_000L);
    ConversationTasks conversations = ConversationTasks.of(dev.hfr.runtime.conversation.ConversationTasks.builder(hfr)
        .tenant("shop").idleTimeout(Duration.ofMinutes(30)).clock(time).build());
    OrderDesk desk = OrderDesk_Recovering.create(hfr);
    ToolExecutor order = HfrTools.aiServiceTools(conversations, desk).stream()
        .filter(t -> t.name().equals("placeOrder")).findFirst().orElseThrow().toolExecutor();
    ToolExecutionRequest request = ToolExecutionRequest.builder().id("c").name("placeOrder")
        .arguments("{\"sku\":\"SKU-1\",\"quantity\":1}").build();
    InvocationContext frank = InvocationContext.builder().chatMemoryId("frank").build();

    order.executeWithContext(request, frank);
    String first = conversations.task("frank").orElseThrow().spec().taskId();
    time.advance(Duration.ofDays(7).toNanos());
    order.executeWithContext(request, frank);

    assertThat(conversations.task("frank").orElseThrow().spec().taskId()).isNotEqualTo(first);
    assertThat(desk.orders).as("next week's order is a new order").hasSize(2);
  }

  private static String await(CountDownLatch start, java.util.function.Supplier<String> chat) {
    try {
      start.await(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
    return chat.get();
  }
}
