package dev.hfr.mcp.server;

import dev.hfr.mcp.testing.McpConfigs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Risk;
import dev.hfr.mcp.McpMetaKeys;
import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Annotated tools served over MCP (the SDK's server on loopback), every call through the engine. */
class McpToolExporterTest {

  @TempDir Path dir;
  EmbeddedFileLedger ledger;
  Hfr hfr;
  IssueTools tools;
  FaultyMcpServer server;
  McpSyncClient plain;

  @BeforeEach
  void start() {
    Warmup.once();
    ledger = EmbeddedFileLedger.open(dir.resolve("server-ledger"));
    hfr = Hfr.builder().ledger(ledger).build();
    tools = IssueTools_Recovering.create(hfr);
    server = FaultyMcpServer.start(new FaultPlan(), McpToolExporter.builder(hfr).tools(tools).build().specifications());
    plain = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
        .requestTimeout(Duration.ofSeconds(10)).build();
    plain.initialize();
  }

  @AfterEach
  void stop() throws Exception {
    plain.close();
    server.close();
    hfr.close();
    ledger.close();
  }

  @SuppressWarnings("unchecked")
  static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  McpSchema.Tool listed(String name) {
    return plain.listTools().tools().stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void hintsComeFromTheRegistrysRisk() {
    assertThat(listed("searchIssues").annotations().readOnlyHint()).isTrue();
    McpSchema.ToolAnnotations label = listed("labelIssue").annotations();
    assertThat(label.idempotentHint()).isTrue();
    assertThat(label.destructiveHint()).isFalse();
    McpSchema.ToolAnnotations create = listed("createIssue").annotations();
    assertThat(create.destructiveHint()).isFalse();
    assertThat(create.idempotentHint()).isFalse();
    assertThat(create.readOnlyHint()).isFalse();
    assertThat(listed("closeAll").annotations().destructiveHint()).isTrue();
    assertThat(dev.hfr.mcp.client.McpToolRisk.fromHints(listed("createIssue").annotations())).isEqualTo(Risk.R2);
  }

  @Test
  void theInputSchemaHasTheParametersButNotTheIdempotencyKey() {
    Map<String, Object> schema = listed("labelIssue").inputSchema();
    assertThat(map(schema.get("properties")).keySet()).containsExactly("title", "label");
    assertThat(schema.get("required")).isEqualTo(List.of("title", "label"));
    Map<String, Object> search = map(listed("searchIssues").inputSchema().get("properties"));
    assertThat(search.get("limit")).isEqualTo(Map.of("type", "integer"));
    assertThat(listed("searchIssues").inputSchema().get("required")).isEqualTo(List.of("query"));
  }

  @Test
  void aResultCarriesTheExecutionContract() {
    McpSchema.CallToolResult r = plain.callTool(new McpSchema.CallToolRequest("createIssue", Map.of("title", "a"), null));
    assertThat(r.isError()).isNotEqualTo(Boolean.TRUE);
    Map<String, Object> structured = map(r.structuredContent());
    assertThat(map(structured.get("result"))).containsEntry("title", "a");
    Map<String, Object> execution = map(structured.get("execution"));
    assertThat(execution.get("status")).isEqualTo("success");
    assertThat(execution.get("side_effect")).isEqualTo(true);
    assertThat(execution.get("tool")).isEqualTo("IssueTools.createIssue");
    assertThat((List<?>) execution.get("artifact_refs")).anySatisfy(ref -> assertThat((String) ref).startsWith("ledger:"));
  }

  @Test
  void aKeyInMetaReachesTheIdempotencyKeyParameterAndOtherwiseHfrDerivesOne() {
    plain.callTool(new McpSchema.CallToolRequest("labelIssue", Map.of("title", "a", "label", "bug"),
        Map.of(McpMetaKeys.IDEMPOTENCY_KEY, "key-from-client")));
    plain.callTool(new McpSchema.CallToolRequest("labelIssue", Map.of("title", "a", "label", "bug"), null));
    assertThat(tools.labelKeys.get(0)).isEqualTo("key-from-client");
    assertThat(tools.labelKeys.get(1)).isNotBlank().isNotEqualTo("key-from-client");
  }

  @Test
  void aFailedCallIsAnErrorResultWithTheContractNotAStackTrace() {
    tools.createIssue("refuse");
    McpSchema.CallToolResult r = plain.callTool(new McpSchema.CallToolRequest("closeAll", Map.of(), null));
    assertThat(r.isError()).isTrue();
    Map<String, Object> execution = map(map(r.structuredContent()).get("execution"));
    assertThat(execution.get("status")).isIn("failed", "escalated");
    assertThat(execution.get("retryable")).isEqualTo(false);
    assertThat(((McpSchema.TextContent) r.content().get(0)).text()).doesNotContain("IllegalStateException");
    assertThat(tools.closes()).isEqualTo(1);
  }

  @Test
  void argumentsThatDoNotBindAreAContractFault() {
    McpSchema.CallToolResult r = plain.callTool(new McpSchema.CallToolRequest("searchIssues",
        Map.of("query", "a", "limit", "many"), null));
    assertThat(r.isError()).isTrue();
  }

  @Test
  void anHfrClientReconcilesAnHfrServersLostCreateAndNeverResendsItsDestructiveTool() throws Exception {
    server.faults().next("createIssue", new McpFault.DropAfterCommit());
    try (EmbeddedFileLedger clientLedger = EmbeddedFileLedger.open(dir.resolve("client-ledger"));
         Hfr clientHfr = Hfr.builder().ledger(clientLedger).build();
         HfrMcpClient client = HfrMcpClient.builder(clientHfr, "issues", McpClient.sync(
                 McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
                 .requestTimeout(Duration.ofSeconds(10)))
             .config(McpConfigs.parse("""
                 mcp:
                   servers:
                     issues:
                       trusted: true
                       tools:
                         createIssue:
                           risk: R2
                           reconcile: {tool: searchIssues, arguments: {query: title}, found_at: /result}
                 """))
             .build()) {
      assertThat(client.risk("searchIssues").effective()).isEqualTo(Risk.R0);
      assertThat(client.risk("labelIssue").effective()).isEqualTo(Risk.R1);
      client.callTool("createIssue", Map.of("title", "lost"));
      assertThat(tools.creates()).isEqualTo(1);
      assertThat(client.risk("closeAll").effective()).isEqualTo(Risk.R3);
      server.faults().next("closeAll", new McpFault.DropAfterCommit());
      assertThatThrownBy(() -> client.callTool("closeAll", Map.of()))
          .isInstanceOfSatisfying(ToolCallException.class, e -> assertThat(e.outcome().verificationRequired()).isTrue());
      assertThat(tools.closes()).isEqualTo(1);
    }
  }
}
