package dev.hfr.langchain4j.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.mcp.testing.LoopbackTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.langchain4j.memory.chat.MessageWindowChatMemory;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import dev.langchain4j.service.MemoryId;
import dev.langchain4j.service.UserMessage;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An AI service whose tools come from a real MCP server on loopback through {@link HfrMcpToolProvider}: a
 * real LangChain4j OpenAI client against a scripted model, the SDK's client and server, faults on the wire.
 */
class HfrMcpToolProviderTest {

  interface Clerk {
    String chat(String message);
  }

  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  LoopbackTracker mcp;
  ScriptedOpenAiServer model;

  @BeforeEach
  void start() {
    mcp = LoopbackTracker.start(dir, LoopbackTracker.CONFIG);
    model = ScriptedOpenAiServer.start();
  }

  @AfterEach
  void stop() throws Exception {
    model.close();
    mcp.close();
  }

  Clerk clerk() {
    return AiServices.builder(Clerk.class)
        .chatModel(OpenAiChatModel.builder().baseUrl(model.baseUrl()).apiKey("test-key").modelName("gpt-4o")
            .maxRetries(0).timeout(Duration.ofSeconds(30)).build())
        .toolProvider(HfrMcpToolProvider.of(mcp.client()))
        .build();
  }

  @Test
  void theModelIsOfferedTheServersToolsWithTheirSchemas() {
    model.script("gpt-4o", Reply.text("nothing to do"));
    clerk().chat("hello");
    JsonNode tools = model.requests("gpt-4o").get(0).body().get("tools");
    List<String> names = new ArrayList<>();
    tools.forEach(t -> names.add(t.get("function").get("name").asText()));
    assertThat(names).containsExactlyInAnyOrder("create_issue", "search_issues", "label_issue", "close_all");
    JsonNode label = null;
    for (JsonNode t : tools) {
      if (t.get("function").get("name").asText().equals("label_issue")) {
        label = t.get("function").get("parameters").get("properties");
      }
    }
    // the server's parameters only: HFR's key for this R1 tool travels in _meta, never as an argument
    List<String> properties = new ArrayList<>();
    label.fieldNames().forEachRemaining(properties::add);
    assertThat(properties).containsExactlyInAnyOrder("title", "label");
  }

  @Test
  void aCreateWhoseAnswerIsLostIsReconciledAndTheModelGetsTheIssue() {
    mcp.faults().next("create_issue", new McpFault.DropAfterCommit());
    model.script("gpt-4o", Reply.toolCall("c1", "create_issue", "{\"title\":\"Disk full\"}"),
        Reply.from(r -> Reply.text("tool said " + r.toolResults().get(0))));
    String answer = clerk().chat("file it");
    assertThat(mcp.server().dropped()).isEqualTo(1);
    assertThat(mcp.tracker().created("Disk full")).isEqualTo(1);
    assertThat(answer).startsWith("tool said ").contains("Disk full").doesNotContain("\"status\":\"failed\"");
  }

  @Test
  void aDestructiveCallWithAnUnknownOutcomeReachesTheModelAsTheContractAndRunsOnce() throws Exception {
    mcp.faults().next("close_all", new McpFault.DropAfterCommit());
    model.script("gpt-4o", Reply.toolCall("c1", "close_all", "{}"),
        Reply.from(r -> Reply.text(r.toolResults().get(0))));
    JsonNode contract = JSON.readTree(clerk().chat("close everything"));
    assertThat(contract.get("status").asText()).isEqualTo("escalated");
    assertThat(contract.get("tool").asText()).isEqualTo("tracker.close_all");
    assertThat(contract.get("retryable").asBoolean()).isFalse();
    assertThat(contract.get("side_effect").asBoolean()).isTrue();
    assertThat(contract.get("verification_required").asBoolean()).isTrue();
    assertThat(mcp.tracker().closeCalls()).isEqualTo(1);
  }

  @Test
  void argumentsThatAreNotAJsonObjectAreRefusedAsAContractAndNothingIsSent() throws Exception {
    model.script("gpt-4o", Reply.toolCall("c1", "create_issue", "[\"Disk full\"]"),
        Reply.from(r -> Reply.text(r.toolResults().get(0))));
    JsonNode contract = JSON.readTree(clerk().chat("file it"));
    assertThat(contract.get("error_type").asText()).isEqualTo("invalid_arguments");
    assertThat(contract.get("fault").asText()).isEqualTo("T5");
    assertThat(contract.get("side_effect").asBoolean()).isFalse();
    assertThat(mcp.tracker().created("Disk full")).isZero();
  }

  interface Desk {
    String chat(@MemoryId String conversation, @UserMessage String message);
  }

  @Test
  @DisplayName("the model calling a destructive tool again in its conversation is answered from the ledger: it ran once")
  void theModelsReCallInItsConversationIsNotSentAgain() throws Exception {
    mcp.faults().next("close_all", new McpFault.DropAfterCommit());
    model.script("gpt-4o", Reply.toolCall("c1", "close_all", "{}"), Reply.toolCall("c2", "close_all", "{}"),
        Reply.from(r -> Reply.text(r.toolResults().get(1))));
    Desk desk = AiServices.builder(Desk.class)
        .chatModel(OpenAiChatModel.builder().baseUrl(model.baseUrl()).apiKey("test-key").modelName("gpt-4o")
            .maxRetries(0).timeout(Duration.ofSeconds(30)).build())
        .chatMemoryProvider(id -> MessageWindowChatMemory.withMaxMessages(20))
        .toolProvider(HfrMcpToolProvider.of(mcp.client()))
        .build();

    JsonNode second = JSON.readTree(desk.chat("ops-7", "close everything"));

    assertThat(mcp.tracker().closeCalls()).as("the re-call was not sent").isEqualTo(1);
    assertThat(second.get("call_again").asBoolean(true)).isFalse();
    assertThat(second.get("message").asText()).contains("person was asked");
    assertThat(dev.hfr.runtime.conversation.ConversationTasks.of(mcp.hfr()).task("ops-7")).isPresent();
  }
}
