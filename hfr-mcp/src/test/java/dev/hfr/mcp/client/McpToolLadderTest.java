package dev.hfr.mcp.client;

import dev.hfr.mcp.testing.McpConfigs;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.McpFault;
import dev.hfr.runtime.DegradeStep;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.server.McpServerFeatures;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tool on another MCP server as a rung of the ladder ({@code degrade_to}): two real servers on loopback,
 * the tracker's search degrading to the archive's, walked by the engine like an annotated {@code @Degrade}.
 * The tool fails with an {@code isError} "input validation failed" (a contract fault, T5, which the ladder
 * answers with another tool): unlike a JSON-RPC error, the SDK always delivers it as it is.
 */
class McpToolLadderTest {

  static final String CONFIG = """
      mcp:
        servers:
          tracker:
            tools:
              search_issues:
                risk: R0
                degrade_to:
                  - {tool: archive.search_archive, level: L2, arguments: {text: query}}
              label_issue:
                risk: R1
                degrade_to:
                  - {tool: archive.search_archive, level: L2}
          archive:
            tools:
              search_archive:
                risk: R0
      """;

  @TempDir Path dir;
  McpClientHarness h;
  FaultyMcpServer archiveServer;
  final List<Map<String, Object>> archiveCalls = new CopyOnWriteArrayList<>();
  HfrMcpClient archive;

  @BeforeEach
  void start() {
    archiveServer = FaultyMcpServer.start(new FaultPlan(), List.of(searchArchive()));
    h = new McpClientHarness(dir, dev.hfr.mcp.testing.IssueTracker.HONEST_CREATE, "mcp: {servers: {}}", Duration.ofSeconds(10));
    archive = HfrMcpClient.builder(h.hfr, "archive", McpClient.sync(
        McpHttpTransports.streamableHttp(archiveServer.url()).endpoint(FaultyMcpServer.ENDPOINT).build()))
        .config(McpConfigs.parse(CONFIG)).build();
  }

  @AfterEach
  void stop() throws Exception {
    archive.close();
    h.close();
    archiveServer.close();
  }

  private McpServerFeatures.SyncToolSpecification searchArchive() {
    McpSchema.Tool tool = McpSchema.Tool.builder("search_archive",
            Map.of("type", "object", "properties", Map.of("text", Map.of("type", "string"), "query", Map.of("type", "string"))))
        .annotations(new McpSchema.ToolAnnotations("Search the archive", true, false, true, false, null))
        .build();
    return McpServerFeatures.SyncToolSpecification.builder()
        .tool(tool)
        .callHandler((exchange, request) -> {
          archiveCalls.add(request.arguments());
          return McpSchema.CallToolResult.builder().structuredContent(Map.of("items", List.of(Map.of("title", "archived"))))
              .addTextContent("archived").build();
        })
        .build();
  }

  private HfrMcpClient trackerWithRungs() {
    return HfrMcpClient.builder(h.hfr, "tracker", McpClient.sync(
            McpHttpTransports.streamableHttp(h.server.url()).endpoint(FaultyMcpServer.ENDPOINT).build()))
        .config(McpConfigs.parse(CONFIG))
        .peer(archive)
        .build();
  }

  @Test
  void theRungIsInTheDescriptorWithItsLevelAndTheOtherServersRisk() {
    try (HfrMcpClient tracker = trackerWithRungs()) {
      assertThat(tracker.descriptor("search_issues").degradeLadder())
          .containsExactly(new DegradeStep("archive.search_archive", DegradeLevel.L2, Risk.R0));
    }
  }

  @Test
  void aReadTheServerRejectsDegradesToTheOtherServersToolWithMappedArguments() {
    try (HfrMcpClient tracker = trackerWithRungs()) {
      h.faults.next("search_issues", new McpFault.ErrorResult("input validation failed: search is down for reindexing"));
      McpSchema.CallToolResult r = tracker.callTool("search_issues", Map.of("query", "disk"));
      assertThat(r.structuredContent()).isEqualTo(Map.of("items", List.of(Map.of("title", "archived"))));
      assertThat(archiveCalls).containsExactly(Map.of("text", "disk"));
      DecisionEvent degrade = h.eventsOf("tracker.search_issues").get(0);
      assertThat(degrade.action()).isEqualTo(Action.DEGRADE_TOOL);
    }
  }

  @Test
  void theAsynchronousClientWalksTheSameLadder() throws Exception {
    try (HfrMcpAsyncClient asyncArchive = HfrMcpAsyncClient.builder(h.hfr, "archive", McpClient.async(
            McpHttpTransports.streamableHttp(archiveServer.url()).endpoint(FaultyMcpServer.ENDPOINT).build()))
            .config(McpConfigs.parse(CONFIG)).build();
        HfrMcpAsyncClient tracker = HfrMcpAsyncClient.builder(h.hfr, "tracker", McpClient.async(
            McpHttpTransports.streamableHttp(h.server.url()).endpoint(FaultyMcpServer.ENDPOINT).build()))
        .config(McpConfigs.parse(CONFIG))
        .peer(asyncArchive)
        .build()) {
      h.faults.next("search_issues", new McpFault.ErrorResult("input validation failed: search is down"));
      McpSchema.CallToolResult r = tracker.callTool("search_issues", Map.of("query", "disk")).get(30, TimeUnit.SECONDS);
      assertThat(r.structuredContent()).isEqualTo(Map.of("items", List.of(Map.of("title", "archived"))));
      assertThat(archiveCalls).containsExactly(Map.of("text", "disk"));
    }
  }

  /**
   * The tracker's failed answer completes on a pooled thread (on JDK 25, the common fork-join pool the JDK's
   * HTTP client completes responses on, one worker on 2 cores): the synchronous archive client's blocking
   * call must not wait there, or the archive's own answer, queued behind it on that pool, never arrives —
   * the rung stalled until the archive's 20 s request timeout, then the read was sent again.
   */
  @Test
  void anAsynchronousClientsRungOnASynchronousPeerAnswersAtOnceAndReachesThePeerOnce() throws Exception {
    try (HfrMcpAsyncClient tracker = asyncTrackerWithRungs(Duration.ofSeconds(20))) {
      for (int i = 0; i < 4; i++) {
        h.faults.next("search_issues", new McpFault.ErrorResult("input validation failed: search is down"));
        assertThat(tracker.callTool("search_issues", Map.of("query", "disk" + i)))
            .as("call %d (the archive's request timeout is 20 s)", i)
            .succeedsWithin(Duration.ofSeconds(8))
            .extracting(McpSchema.CallToolResult::structuredContent)
            .isEqualTo(Map.of("items", List.of(Map.of("title", "archived"))));
      }
      assertThat(archiveCalls).extracting(a -> a.get("text")).containsExactly("disk0", "disk1", "disk2", "disk3");
    }
  }

  /**
   * The tracker's request times out on a Reactor timer thread, where the SDK's blocking call refuses to run
   * ("block() ... not supported in thread parallel-1"): the rung on the synchronous archive must still answer.
   */
  @Test
  void anAsynchronousClientsRungOnASynchronousPeerAnswersAfterTheToolTimedOut() throws Exception {
    // 1.5 s: short, yet long enough for the client's initialize on a busy machine
    try (HfrMcpAsyncClient tracker = asyncTrackerWithRungs(Duration.ofMillis(1_500))) {
      for (int attempt = 0; attempt < 4; attempt++) {  // every attempt the engine makes of the read
        h.faults.next("search_issues", new McpFault.SlowAfterCommit(2_500));
      }
      assertThat(tracker.callTool("search_issues", Map.of("query", "disk")))
          .succeedsWithin(Duration.ofSeconds(30))
          .extracting(McpSchema.CallToolResult::structuredContent)
          .isEqualTo(Map.of("items", List.of(Map.of("title", "archived"))));
      assertThat(archiveCalls).containsExactly(Map.of("text", "disk"));
      assertThat(h.eventsOf("tracker.search_issues")).extracting(DecisionEvent::action).contains(Action.DEGRADE_TOOL);
    }
  }

  private HfrMcpAsyncClient asyncTrackerWithRungs(Duration requestTimeout) {
    return HfrMcpAsyncClient.builder(h.hfr, "tracker", McpClient.async(
            McpHttpTransports.streamableHttp(h.server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
            .requestTimeout(requestTimeout))
        .config(McpConfigs.parse(CONFIG))
        .peer(archive)  // the synchronous client of the archive
        .build();
  }

  @Test
  void aRungRiskierThanTheToolIsNeverTaken() {
    // label_issue is R1 by its hints; so is nothing riskier — but an unlisted rung tool counts as R3
    String config = CONFIG.replace("archive.search_archive, level: L2}", "archive.purge_archive, level: L2}");
    try (HfrMcpClient tracker = HfrMcpClient.builder(h.hfr, "tracker", McpClient.sync(
            McpHttpTransports.streamableHttp(h.server.url()).endpoint(FaultyMcpServer.ENDPOINT).build()))
        .config(McpConfigs.parse(config)).peer(archive).build()) {
      assertThat(tracker.descriptor("label_issue").degradeLadder()).extracting(DegradeStep::targetRisk).containsExactly(Risk.R3);
      h.faults.next("label_issue", new McpFault.ErrorResult("input validation failed: bad label"));
      assertThatThrownBy(() -> tracker.callTool("label_issue", Map.of("title", "t", "label", "x")))
          .isInstanceOf(ToolCallException.class);
      assertThat(archiveCalls).isEmpty();
    }
  }

  @Test
  void aRungWithoutArgumentsTakesTheCallsOwn() {
    try (HfrMcpClient tracker = trackerWithRungs()) {
      h.faults.next("label_issue", new McpFault.ErrorResult("input validation failed: labels are read-only today"));
      tracker.callTool("label_issue", Map.of("title", "t", "label", "x"));
      assertThat(archiveCalls).containsExactly(Map.of("title", "t", "label", "x"));
    }
  }

  @Test
  void aRungOnAServerWithoutAClientIsRefusedWhenTheClientIsBuilt() {
    var builder = HfrMcpClient.builder(h.hfr, "tracker", McpClient.sync(
            McpHttpTransports.streamableHttp(h.server.url()).endpoint(FaultyMcpServer.ENDPOINT).build()))
        .config(McpConfigs.parse(CONFIG));
    assertThatThrownBy(builder::build).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining(".degrade_to names archive.search_archive, but no client of server \"archive\"")
        .hasMessageContaining(".peer(");
  }
}
