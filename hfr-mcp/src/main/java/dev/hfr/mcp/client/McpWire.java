package dev.hfr.mcp.client;

import io.modelcontextprotocol.spec.McpSchema;
import java.util.concurrent.CompletableFuture;

/**
 * One MCP server as a tool call reaches it: what the sync and the async client have in common, so that a
 * call's reconcile tool and its rungs on other servers are sent the same way whichever client holds them.
 * Sending here is one attempt: failures come back translated for the classifier, no recovery.
 */
interface McpWire {

  /** The server's name in HFR. */
  String server();

  /** The risk HFR recovers {@code tool} at, or {@code null} when the server does not list it. */
  McpToolRisk risk(String tool);

  /** Sends one request and waits for its answer. */
  McpSchema.CallToolResult send(McpSchema.CallToolRequest request);

  /**
   * Sends one request; the answer completes the future. The calling thread is not held: a blocking client
   * sends on a worker thread of its own (an asynchronous client's rung may run on a transport's thread).
   */
  CompletableFuture<McpSchema.CallToolResult> sendAsync(McpSchema.CallToolRequest request);
}
