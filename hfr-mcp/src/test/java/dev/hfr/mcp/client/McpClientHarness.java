package dev.hfr.mcp.client;

import dev.hfr.mcp.testing.FaultPlan;
import dev.hfr.mcp.testing.FaultyMcpServer;
import dev.hfr.mcp.testing.IssueTracker;
import dev.hfr.mcp.testing.McpConfigs;
import dev.hfr.mcp.testing.Warmup;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.spec.McpSchema;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A tracker server on loopback, an engine with an embedded ledger, and the HFR client between them. */
final class McpClientHarness implements AutoCloseable {

  static final String TRACKER_CONFIG = """
      mcp:
        servers:
          tracker:
            tools:
              create_issue:
                risk: R2
                reconcile: {tool: search_issues, arguments: {query: title}, found_at: /items}
              search_issues:
                risk: R0
              label_issue:
                risk: R1
      """;

  final IssueTracker tracker = new IssueTracker();
  final FaultPlan faults = new FaultPlan();
  final FaultyMcpServer server;
  final EmbeddedFileLedger ledger;
  final List<DecisionEvent> events = new CopyOnWriteArrayList<>();
  final SimpleMeterRegistry meters = new SimpleMeterRegistry();
  final Hfr hfr;
  final HfrMcpClient client;
  private final String config;
  private final Duration requestTimeout;
  private HfrMcpAsyncClient async;

  McpClientHarness(Path dir, McpSchema.ToolAnnotations createHints, String config, Duration requestTimeout) {
    Warmup.once();
    server = FaultyMcpServer.start(faults, tracker.tools(createHints));
    this.config = config;
    this.requestTimeout = requestTimeout;
    ledger = EmbeddedFileLedger.open(dir.resolve("ledger"));
    hfr = Hfr.builder().ledger(ledger).decisionSink(events::add).meterRegistry(meters).seed(7).build();
    client = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(
            McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
            .requestTimeout(requestTimeout).initializationTimeout(Duration.ofSeconds(30)))
        .config(McpConfigs.parse(config))
        .build();
  }

  McpClientHarness(Path dir) {
    this(dir, IssueTracker.HONEST_CREATE, TRACKER_CONFIG, Duration.ofSeconds(10));
  }

  /** An asynchronous HFR client of the same server and engine, built on first use. */
  HfrMcpAsyncClient async() {
    if (async == null) {
      async = HfrMcpAsyncClient.builder(hfr, "tracker", McpClient.async(
              McpHttpTransports.streamableHttp(server.url()).endpoint(FaultyMcpServer.ENDPOINT).build())
              .requestTimeout(requestTimeout).initializationTimeout(Duration.ofSeconds(30)))
          .config(McpConfigs.parse(config))
          .build();
    }
    return async;
  }

  List<DecisionEvent> eventsOf(String tool) {
    return events.stream().filter(e -> e.tool().equals(tool)).toList();
  }

  @Override
  public void close() throws java.io.IOException {
    client.close();
    if (async != null) {
      async.close();
    }
    hfr.close();
    ledger.close();
    server.close();
  }
}
