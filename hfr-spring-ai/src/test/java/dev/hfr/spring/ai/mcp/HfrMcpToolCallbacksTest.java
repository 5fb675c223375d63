package dev.hfr.spring.ai.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.mcp.testing.LoopbackTracker;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import java.nio.file.Path;
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
  LoopbackTracker mcp;
  Map<String, ToolCallback> callbacks;

  @BeforeEach
  void start() {
    mcp = LoopbackTracker.start(dir, CONFIG);
    callbacks = Arrays.stream(HfrMcpToolCallbacks.of(mcp.client()).getToolCallbacks())
        .collect(Collectors.toMap(c -> c.getToolDefinition().name(), Function.identity()));
  }

  @AfterEach
  void stop() throws Exception {
    mcp.close();
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
    mcp.faults().next("create_issue", new McpFault.DropAfterCommit());
    JsonNode issue = JSON.readTree(callbacks.get("create_issue").call("{\"title\":\"Disk full\"}"));
    assertThat(mcp.server().dropped()).isEqualTo(1);
    assertThat(mcp.tracker().created("Disk full")).isEqualTo(1);
    assertThat(issue.get("items").get(0).get("title").asText()).isEqualTo("Disk full");
  }

  @Test
  void aDestructiveCallWithAnUnknownOutcomeReturnsTheContractAndRunsOnce() throws Exception {
    mcp.faults().next("close_all", new McpFault.DropAfterCommit());
    JsonNode contract = JSON.readTree(callbacks.get("close_all").call("{}"));
    assertThat(contract.get("status").asText()).isEqualTo("escalated");
    assertThat(contract.get("tool").asText()).isEqualTo("tracker.close_all");
    assertThat(contract.get("retryable").asBoolean()).isFalse();
    assertThat(contract.get("verification_required").asBoolean()).isTrue();
    assertThat(mcp.tracker().closeCalls()).isEqualTo(1);
  }

  @Test
  void aResultFromARungReachesTheModelMarkedAsDegraded() throws Exception {
    mcp.faults().next("search_issues", new McpFault.ErrorResult("input validation failed: the full-text index is rebuilding"));
    JsonNode answer;
    try (TaskScope task = mcp.hfr().openTask(TaskSpec.builder("acme", "triage-1").build())) {
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
    assertThat(mcp.tracker().created("Disk full")).isZero();
  }
}
