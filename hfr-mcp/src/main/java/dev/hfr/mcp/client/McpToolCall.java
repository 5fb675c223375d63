package dev.hfr.mcp.client;

import dev.hfr.runtime.ToolInvocation;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;

/**
 * One {@code tools/call} as the engine runs it on the calling thread: each attempt sends the request
 * through the SDK client; an {@code isError} result, a JSON-RPC error or a transport failure is thrown for
 * the classifier; the reconcile tool, when configured, answers whether a lost write committed; a rung is a
 * tool on this or another server.
 *
 * <p>The call's single argument is its argument map, so the ledger key is
 * SHA-256(tenant ‖ task ‖ tool ‖ canonical(arguments) ‖ occurrence): the same arguments, the same record.
 */
final class McpToolCall extends ToolInvocation<McpSchema.CallToolResult> {

  private final McpCallSpec call;

  McpToolCall(McpCallSpec call) {
    this.call = call;
  }

  @Override
  public McpSchema.CallToolResult proceed(String idempotencyKey) {
    return call.judge(call.wire().send(call.request(idempotencyKey)));
  }

  @Override
  public int argumentCount() {
    return 1;
  }

  @Override
  public Object argument(int index) {
    if (index != 0) {
      throw new IndexOutOfBoundsException("an MCP call has one argument, its argument map; no argument " + index);
    }
    return call.arguments();
  }

  @Override
  public Optional<McpSchema.CallToolResult> reconcile() {
    return call.reconcile();
  }

  @Override
  public McpSchema.CallToolResult degrade(int index) {
    return call.degrade(index);
  }
}
