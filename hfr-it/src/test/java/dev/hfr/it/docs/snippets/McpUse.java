package dev.hfr.it.docs.snippets;

import dev.hfr.mcp.client.HfrMcpAsyncClient;
import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpHttpTransports;
import dev.hfr.mcp.server.McpToolExporter;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.server.McpServer;
import io.modelcontextprotocol.server.McpServerFeatures.SyncToolSpecification;
import io.modelcontextprotocol.server.McpSyncServer;
import io.modelcontextprotocol.spec.McpClientTransport;
import io.modelcontextprotocol.spec.McpSchema.CallToolResult;
import io.modelcontextprotocol.spec.McpSchema.ServerCapabilities;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * docs/MCP.md's examples, compiled by the build so every type and method the page names is real; the transports
 * and the handling of results are parameters, as the page leaves them to the application.
 */
final class McpUse {

  private McpUse() {}

  static void syncClient() {
    // tag::sync-client[]
    HfrConfig config = HfrConfigLoader.load(Path.of("hfr.yaml"));     // the engine's settings and hfr.mcp
    Hfr hfr = Hfr.builder().config(config).build();
    var transport = McpHttpTransports.streamableHttp("http://127.0.0.1:8080").endpoint("/mcp").build();
    try (HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(transport))
            .config(config)                                    // its hfr.mcp section
            .build();                                          // initializes, lists the tools
         TaskScope task = hfr.openTask(TaskSpec.builder("acme", "triage-42").build())) {
      CallToolResult issue = tracker.callTool("create_issue", Map.of("title", "Disk full on db-1"));
    } catch (ToolCallException e) {
      ToolOutcome contract = e.outcome();                      // status, error type, retryable, side_effect, ...
    }
    // end::sync-client[]
  }

  static void asyncClient(Hfr hfr, HfrConfig config, McpClientTransport transport) {
    // tag::async-client[]
    try (HfrMcpAsyncClient tracker = HfrMcpAsyncClient.builder(hfr, "tracker", McpClient.async(transport))
            .config(config)
            .build()) {                                        // waits for initialize and the first listing
      tracker.callTool("create_issue", Map.of("title", "Disk full on db-1"))
          .thenAccept(issue -> System.out.println(issue))     // the accepted result
          .exceptionally(e -> null);                           // a ToolCallException (the contract) as cause
    }
    // end::async-client[]
  }

  static HfrMcpClient peers(Hfr hfr, HfrConfig config, McpClientTransport archiveTransport,
      McpClientTransport trackerTransport) {
    // tag::peers[]
    HfrMcpClient archive = HfrMcpClient.builder(hfr, "archive", McpClient.sync(archiveTransport)).config(config).build();
    HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(trackerTransport)).config(config)
        .peer(archive)                               // the client that reaches archive.* rungs (sync or async)
        .build();
    // end::peers[]
    return tracker;
  }

  static McpSyncServer server(McpServerTransportProvider transportProvider) {
    // tag::server[]
    Hfr hfr = Hfr.builder().build();
    TrackerTools tools = TrackerTools_Recovering.create(hfr);          // the generated proxy
    List<SyncToolSpecification> specs = McpToolExporter.builder(hfr).tools(tools).build().specifications();
    McpSyncServer server = McpServer.sync(transportProvider)
        .capabilities(ServerCapabilities.builder().tools(true).build())
        .tools(specs).build();
    // end::server[]
    return server;
  }
}
