package dev.hfr.mcp.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.mcp.testing.TicketDesk;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reconcile answer HFR cannot read as present or absent is unknown, never committed: a create whose answer was
 * lost is reconciled by a tool answering {@code {"found": false}} — the write is absent, so it is sent again, not
 * reported as done while nothing was created. A real MCP server on loopback, the connection dropped on the wire.
 */
class ReconcileFoundAtTest {

  @TempDir Path dir;
  private final TicketDesk desk = new TicketDesk();
  private final FaultPlan faults = new FaultPlan();
  private FaultyMcpServer server;
  private EmbeddedFileLedger ledger;
  private Hfr hfr;
  private HfrMcpClient client;

  private void start(String foundAt) {
    Warmup.once();
    server = FaultyMcpServer.start(faults, desk.tools());
    ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
    hfr = Hfr.builder().ledger(ledger).build();
    client = HfrMcpClient.builder(hfr, "desk", McpClient.sync(
            McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
            .requestTimeout(Duration.ofSeconds(60)))
        .config(McpConfigs.parse("""
            mcp:
              servers:
                desk:
                  tools:
                    create_ticket:
                      risk: R2
                      reconcile: {tool: ticket_exists, arguments: {title: title}, found_at: %s}
                    ticket_exists:
                      risk: R0
            """.formatted(foundAt)))
        .build();
  }

  @AfterEach
  void stop() throws Exception {
    if (client != null) {
      client.close();
    }
    if (hfr != null) {
      hfr.close();
    }
    if (ledger != null) {
      ledger.close();
    }
    if (server != null) {
      server.close();
    }
  }

  @Test
  @DisplayName("a lost create the reconcile tool answers {\"found\": false} for is absent: sent again, created once")
  void foundFalseIsAbsentSoTheCreateIsSentAgain() {
    start("/found");
    desk.loseNextCreate();
    faults.next("create_ticket", new McpFault.DropAfterCommit());

    McpSchema.CallToolResult result = client.callTool("create_ticket", Map.of("title", "printer on fire"));

    assertThat(server.dropped()).isEqualTo(1);
    assertThat(desk.created("printer on fire")).as("the ticket the client reported done exists, once").isEqualTo(1);
    assertThat(result.structuredContent()).isEqualTo(Map.of("title", "printer on fire"));
  }

  @Test
  @DisplayName("a create committed before its answer was lost is {\"found\": true}: committed, not sent again")
  void foundTrueIsCommitted() {
    start("/found");
    faults.next("create_ticket", new McpFault.DropAfterCommit());

    client.callTool("create_ticket", Map.of("title", "no coffee"));

    assertThat(desk.created("no coffee")).isEqualTo(1);
  }

  @ParameterizedTest(name = "found_at {0}")
  @ValueSource(strings = {"/nowhere", "/closed_at", "/count"})
  @DisplayName("a reconcile value that is missing, null or a number leaves the create unknown: neither done nor resent")
  void anUnreadableValueLeavesTheOutcomeUnknown(String foundAt) {
    start(foundAt);
    desk.loseNextCreate();
    faults.next("create_ticket", new McpFault.DropAfterCommit());

    assertThatThrownBy(() -> client.callTool("create_ticket", Map.of("title", "lost " + foundAt)))
        .isInstanceOf(ToolCallException.class)
        .satisfies(e -> assertThat(((ToolCallException) e).outcome().sideEffect()).isTrue());
    assertThat(desk.created("lost " + foundAt)).as("not resent blindly").isZero();
  }
}
