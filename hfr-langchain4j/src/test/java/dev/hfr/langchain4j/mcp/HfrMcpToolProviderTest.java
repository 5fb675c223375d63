package dev.hfr.langchain4j.mcp;

import dev.hfr.mcp.testing.McpConfigs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.service.AiServices;
import io.modelcontextprotocol.client.McpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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

  static final String CONFIG = """
      mcp:
        servers:
          tracker:
            tools:
              create_issue:
                risk: R2
                reconcile: {tool: search_issues, arguments: {query: title}, found_at: /items}
              search_issues:
                risk: R0
      """;
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  final IssueTracker tracker = new IssueTracker();
  final FaultPlan faults = new FaultPlan();
  FaultyMcpServer mcpServer;
  ScriptedOpenAiServer model;
  EmbeddedFileLedger ledger;
  Hfr hfr;
  HfrMcpClient client;

  @BeforeEach
  void start() {
    mcpServer = FaultyMcpServer.start(faults, tracker.tools(IssueTracker.HONEST_CREATE));
    model = ScriptedOpenAiServer.start();
    ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
    hfr = Hfr.builder().ledger(ledger).build();
    client = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(
            McpHttpTransports.streamableHttp(mcpServer.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
            .requestTimeout(Duration.ofSeconds(30)).initializationTimeout(Duration.ofSeconds(60)))
        .config(McpConfigs.parse(CONFIG))
        .build();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    hfr.close();
    ledger.close();
    model.close();
    mcpServer.close();
  }

  Clerk clerk() {
    return AiServices.builder(Clerk.class)
        .chatModel(OpenAiChatModel.builder().baseUrl(model.baseUrl()).apiKey("test-key").modelName("gpt-4o")
            .maxRetries(0).timeout(Duration.ofSeconds(30)).build())
        .toolProvider(HfrMcpToolProvider.of(client))
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
    faults.next("create_issue", new McpFault.DropAfterCommit());
    model.script("gpt-4o", Reply.toolCall("c1", "create_issue", "{\"title\":\"Disk full\"}"),
        Reply.from(r -> Reply.text("tool said " + r.toolResults().get(0))));
    String answer = clerk().chat("file it");
    assertThat(mcpServer.dropped()).isEqualTo(1);
    assertThat(tracker.created("Disk full")).isEqualTo(1);
    assertThat(answer).startsWith("tool said ").contains("Disk full").doesNotContain("\"status\":\"failed\"");
  }

  @Test
  void aDestructiveCallWithAnUnknownOutcomeReachesTheModelAsTheContractAndRunsOnce() throws Exception {
    faults.next("close_all", new McpFault.DropAfterCommit());
    model.script("gpt-4o", Reply.toolCall("c1", "close_all", "{}"),
        Reply.from(r -> Reply.text(r.toolResults().get(0))));
    JsonNode contract = JSON.readTree(clerk().chat("close everything"));
    assertThat(contract.get("status").asText()).isEqualTo("escalated");
    assertThat(contract.get("tool").asText()).isEqualTo("tracker.close_all");
    assertThat(contract.get("retryable").asBoolean()).isFalse();
    assertThat(contract.get("side_effect").asBoolean()).isTrue();
    assertThat(contract.get("verification_required").asBoolean()).isTrue();
    assertThat(tracker.closeCalls()).isEqualTo(1);
  }

  @Test
  void argumentsThatAreNotAJsonObjectAreRefusedAsAContractAndNothingIsSent() throws Exception {
    model.script("gpt-4o", Reply.toolCall("c1", "create_issue", "[\"Disk full\"]"),
        Reply.from(r -> Reply.text(r.toolResults().get(0))));
    JsonNode contract = JSON.readTree(clerk().chat("file it"));
    assertThat(contract.get("error_type").asText()).isEqualTo("invalid_arguments");
    assertThat(contract.get("fault").asText()).isEqualTo("T5");
    assertThat(contract.get("side_effect").asBoolean()).isFalse();
    assertThat(tracker.created("Disk full")).isZero();
  }
}
