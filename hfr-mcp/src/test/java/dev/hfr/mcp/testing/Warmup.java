package dev.hfr.mcp.testing;

import io.modelcontextprotocol.client.McpAsyncClient;
import io.modelcontextprotocol.client.McpClient;
import io.modelcontextprotocol.client.McpSyncClient;
import io.modelcontextprotocol.client.transport.HttpClientStreamableHttpTransport;
import java.time.Duration;
import java.util.Map;

/**
 * One unhurried round trip per JVM before the tests' short request timeouts apply, through the SDK's blocking
 * client and through its asynchronous one: the first MCP exchange loads Tomcat, Reactor and both JSON stacks,
 * and the first asynchronous one the SDK's reactive client path (8 s at load 20 on the 2-core machine), which
 * is longer than a test's timeout.
 */
public final class Warmup {

  private static boolean done;

  private Warmup() {}

  public static synchronized void once() {
    if (done) {
      return;
    }
    IssueTracker tracker = new IssueTracker();
    try (FaultyMcpServer server = FaultyMcpServer.start(new FaultPlan(), tracker.tools(IssueTracker.HONEST_CREATE))) {
      McpSyncClient client = McpClient.sync(HttpClientStreamableHttpTransport.builder(server.url())
              .endpoint(FaultyMcpServer.ENDPOINT).build())
          .requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build();
      client.initialize();
      client.listTools();
      client.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("search_issues", Map.of("query", "warm-up"), null));
      client.close();
      McpAsyncClient async = McpClient.async(HttpClientStreamableHttpTransport.builder(server.url())
              .endpoint(FaultyMcpServer.ENDPOINT).build())
          .requestTimeout(Duration.ofSeconds(60)).initializationTimeout(Duration.ofSeconds(60)).build();
      async.initialize().block();
      async.callTool(new io.modelcontextprotocol.spec.McpSchema.CallToolRequest("search_issues", Map.of("query", "warm-up"), null))
          .block();
      async.closeGracefully().block();
    } catch (Exception e) {
      throw new IllegalStateException("the warm-up round trip failed", e);
    }
    done = true;
  }
}
