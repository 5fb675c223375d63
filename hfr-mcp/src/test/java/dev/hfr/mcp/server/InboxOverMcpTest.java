package dev.hfr.mcp.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.mcp.McpMetaKeys;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.inbox.Answer;
import dev.hfr.runtime.inbox.InboxItem;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.ledger.Ledgers;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A tool that needs approval, served over MCP: the call answers "waiting for a person" at once, nothing runs; once a
 * person approves in the inbox, the client's call again in the same task runs it once; a denial reaches the client
 * with the person's reason.
 */
@DisplayName("Approvals of tools served over MCP wait in the inbox")
class InboxOverMcpTest {

  Hfr hfr;
  ReleaseTools tools;
  FaultyMcpServer server;
  McpSyncClient client;

  @BeforeEach
  void start() {
    Warmup.once();
    hfr = Hfr.builder().ledger(Ledgers.inMemory(LedgerOptions.defaults())).build();
    tools = ReleaseTools_Recovering.create(hfr);
    server = FaultyMcpServer.start(new FaultPlan(), McpToolExporter.builder(hfr).tools(tools).build().specifications());
    client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
        .requestTimeout(Duration.ofSeconds(10)).build();
    client.initialize();
  }

  @AfterEach
  void stop() throws Exception {
    client.close();
    server.close();
    hfr.close();
  }

  private McpSchema.CallToolResult publish(String version, String task) {
    return client.callTool(new McpSchema.CallToolRequest("publish", Map.of("version", version), Map.of(McpMetaKeys.TASK_ID, task)));
  }

  private static String text(McpSchema.CallToolResult r) {
    return ((McpSchema.TextContent) r.content().get(0)).text();
  }

  @Test
  @DisplayName("waiting at once; approved in the inbox, the next call in the task runs once")
  void approved() {
    McpSchema.CallToolResult waiting = publish("2.0.0", "release-1");
    assertThat(waiting.isError()).isTrue();
    assertThat(text(waiting)).contains("awaiting_approval");
    assertThat(tools.published).isEmpty();
    InboxItem request = hfr.inbox().list().get(0);

    hfr.inbox().answer(request.id(), Answer.APPROVE, "release-manager", "");

    assertThat(text(publish("2.0.0", "release-1"))).contains("published 2.0.0");
    assertThat(tools.published).containsExactly("2.0.0");
  }

  @Test
  @DisplayName("a denial reaches the client with the person's reason; nothing runs")
  void denied() {
    publish("3.0.0", "release-2");
    hfr.inbox().answer(hfr.inbox().list().get(0).id(), Answer.DENY, "release-manager", "wait for the security review");

    McpSchema.CallToolResult denied = publish("3.0.0", "release-2");
    assertThat(denied.isError()).isTrue();
    assertThat(text(denied)).contains("approval_denied").contains("wait for the security review");
    assertThat(tools.published).isEmpty();
  }
}
