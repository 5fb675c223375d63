package dev.hfr.spring.ai.mcp;

import dev.hfr.mcp.testing.McpConfigs;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.ai.tool.ToolCallback;

/**
 * Spring AI tool callbacks over a real MCP server on loopback through {@link HfrMcpToolCallbacks}: the SDK's
 * client and server, faults on the wire, the callbacks called as Spring AI's tool calling calls them.
 */
class HfrMcpToolCallbacksTest {

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
                degrade_to:
                  - {tool: search_issues, level: L2, arguments: {query: fallback_query}}
      """;
  static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;
  final IssueTracker tracker = new IssueTracker();
  final FaultPlan faults = new FaultPlan();
  FaultyMcpServer mcpServer;
  EmbeddedFileLedger ledger;
  Hfr hfr;
  HfrMcpClient client;
  Map<String, ToolCallback> callbacks;

  @BeforeEach
  void start() {
    mcpServer = FaultyMcpServer.start(faults, tracker.tools(IssueTracker.HONEST_CREATE));
    ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
    hfr = Hfr.builder().ledger(ledger).build();
    client = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(
            McpHttpTransports.streamableHttp(mcpServer.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
            .requestTimeout(Duration.ofSeconds(30)).initializationTimeout(Duration.ofSeconds(60)))
        .config(McpConfigs.parse(CONFIG))
        .build();
    callbacks = Arrays.stream(HfrMcpToolCallbacks.of(client).getToolCallbacks())
        .collect(Collectors.toMap(c -> c.getToolDefinition().name(), Function.identity()));
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    hfr.close();
    ledger.close();
    mcpServer.close();
  }

  @Test
  void eachToolIsOfferedWithTheServersSchemaAndNoKeyOfHfrs() throws Exception {
    assertThat(callbacks).containsOnlyKeys("create_issue", "search_issues", "label_issue", "close_all");
    JsonNode schema = JSON.readTree(callbacks.get("label_issue").getToolDefinition().inputSchema());
    assertThat(schema.get("type").asText()).isEqualTo("object");
    // the server's parameters only: HFR's key for this R1 tool travels in _meta, never as an argument
    assertThat(schema.get("properties").properties()).extracting(Map.Entry::getKey).containsExactlyInAnyOrder("title", "label");
  }

  @Test
  void aCreateWhoseAnswerIsLostIsReconciledAndTheModelGetsTheIssue() throws Exception {
    faults.next("create_issue", new McpFault.DropAfterCommit());
    JsonNode issue = JSON.readTree(callbacks.get("create_issue").call("{\"title\":\"Disk full\"}"));
    assertThat(mcpServer.dropped()).isEqualTo(1);
    assertThat(tracker.created("Disk full")).isEqualTo(1);
    assertThat(issue.get("items").get(0).get("title").asText()).isEqualTo("Disk full");
  }

  @Test
  void aDestructiveCallWithAnUnknownOutcomeReturnsTheContractAndRunsOnce() throws Exception {
    faults.next("close_all", new McpFault.DropAfterCommit());
    JsonNode contract = JSON.readTree(callbacks.get("close_all").call("{}"));
    assertThat(contract.get("status").asText()).isEqualTo("escalated");
    assertThat(contract.get("tool").asText()).isEqualTo("tracker.close_all");
    assertThat(contract.get("retryable").asBoolean()).isFalse();
    assertThat(contract.get("verification_required").asBoolean()).isTrue();
    assertThat(tracker.closeCalls()).isEqualTo(1);
  }

  @Test
  void aResultFromARungReachesTheModelMarkedAsDegraded() throws Exception {
    faults.next("search_issues", new McpFault.ErrorResult("input validation failed: the full-text index is rebuilding"));
    JsonNode answer;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "triage-1").build())) {
      answer = JSON.readTree(callbacks.get("search_issues").call("{\"query\":\"disk\",\"fallback_query\":\"Disk\"}"));
    }
    assertThat(answer.get("status").asText()).isEqualTo("success");
    assertThat(answer.get("degraded").asBoolean()).isTrue();
    assertThat(answer.get("degrade_level").asText()).isEqualTo("L2");
    assertThat(answer.get("tool").asText()).isEqualTo("tracker.search_issues");
    assertThat(JSON.readTree(answer.get("result").asText()).has("items")).isTrue();
  }

  @Test
  void argumentsThatAreNotAJsonObjectAreRefusedAsAContractAndNothingIsSent() throws Exception {
    JsonNode contract = JSON.readTree(callbacks.get("create_issue").call("[\"Disk full\"]"));
    assertThat(contract.get("error_type").asText()).isEqualTo("invalid_arguments");
    assertThat(contract.get("side_effect").asBoolean()).isFalse();
    assertThat(tracker.created("Disk full")).isZero();
  }
}
