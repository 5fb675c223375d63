package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.mcp.testing.StdioTracker;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.transport.ServerParameters;
import io.modelcontextprotocol.client.transport.StdioClientTransport;
import io.modelcontextprotocol.json.McpJsonDefaults;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The stdio transport: a real MCP server in a child JVM ({@link StdioTracker}) and the SDK's stdio client
 * under HFR. A server process that dies after a destructive tool committed is an unknown outcome (T3): the
 * call is not resent.
 *
 * <p>About 30–50 s, for a reason: the SDK's stdio client (2.1.0) does not fail a pending request when the server
 * process exits, so the call ends at the request timeout — 25 s, because the child JVM's start and the
 * initialize exchange share that timeout: they took over 15 s at load averages of 25–30.
 */
class StdioTransportTest {

  @TempDir Path dir;

  private HfrMcpClient client(Hfr hfr, Path journal) {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    ServerParameters server = ServerParameters.builder(java)
        .args("-cp", System.getProperty("java.class.path"), StdioTracker.class.getName(), journal.toString())
        .build();
    return HfrMcpClient.builder(hfr, "local", McpClient.sync(new StdioClientTransport(server, McpJsonDefaults.getMapper()))
            .requestTimeout(Duration.ofSeconds(25)).initializationTimeout(Duration.ofSeconds(60)))
        .config(McpConfigs.parse("""
            mcp:
              servers:
                local:
                  tools:
                    search_issues: {risk: R0}
            """))
        .build();
  }

  @Test
  void aDestructiveToolWhoseServerProcessDiesAfterCommittingIsNotResent() throws Exception {
    Path journal = dir.resolve("journal");
    try (EmbeddedFileLedger ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
         Hfr hfr = Hfr.builder().ledger(ledger).build();
         HfrMcpClient local = client(hfr, journal)) {
      McpSchema.CallToolResult found = local.callTool("search_issues", Map.of("query", "disk"));
      assertThat(found.structuredContent()).isEqualTo(Map.of("items", java.util.List.of()));

      assertThatThrownBy(() -> local.callTool("close_all", Map.of()))
          .isInstanceOfSatisfying(ToolCallException.class, e -> {
            assertThat(e.outcome().errorType()).isEqualTo(Fault.T3);
            assertThat(e.outcome().retryable()).isFalse();
            assertThat(e.outcome().sideEffect()).isTrue();
          });
      assertThat(Files.readAllLines(journal)).containsExactly("closed");
    }
  }
}
