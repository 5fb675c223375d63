package dev.hfr.mcp.client;

import dev.hfr.runtime.AsyncToolInvocation;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * One {@code tools/call} as the engine's asynchronous driver runs it: an attempt is the SDK's request, and
 * the engine continues on the thread that completes it. The reconcile tool stays a blocking query (the
 * engine's contract for reconcile methods), sent through the same client and waited for.
 *
 * <p>The single argument is the argument map, as for {@link McpToolCall}: same arguments, same ledger record.
 */
final class McpAsyncToolCall extends AsyncToolInvocation<McpSchema.CallToolResult> {

  private final McpCallSpec call;

  McpAsyncToolCall(McpCallSpec call) {
    this.call = call;
  }

  @Override
  public CompletionStage<McpSchema.CallToolResult> start(String idempotencyKey) {
    return call.wire().sendAsync(call.request(idempotencyKey)).thenApply(call::judge);
  }

  @Override
  public CompletionStage<McpSchema.CallToolResult> startRung(int index) {
    return call.degradeAsync(index);
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
}
