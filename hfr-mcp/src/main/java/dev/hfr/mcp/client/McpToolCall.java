package dev.hfr.mcp.client;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.mcp.McpMetaKeys;
import dev.hfr.runtime.ToolInvocation;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * One {@code tools/call} as the engine runs it: each attempt sends the request through the SDK client; an
 * {@code isError} result, a JSON-RPC error or a transport failure is thrown for the classifier; the
 * reconcile tool, when configured, answers whether a lost write committed.
 *
 * <p>The call's single argument is its argument map, so the ledger key is
 * SHA-256(tenant ‖ task ‖ tool ‖ canonical(arguments) ‖ occurrence): the same arguments, the same record.
 */
final class McpToolCall extends ToolInvocation<McpSchema.CallToolResult> {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HfrMcpClient client;
  private final String tool;
  private final Map<String, Object> arguments;
  private final Map<String, Object> meta;
  private final McpReconcile reconcile;

  McpToolCall(HfrMcpClient client, String tool, Map<String, Object> arguments, Map<String, Object> meta,
      McpReconcile reconcile) {
    this.client = client;
    this.tool = tool;
    // sorted, so the canonical form (and the ledger key) does not depend on the caller's map order
    this.arguments = arguments == null ? Map.of() : new TreeMap<>(arguments);
    this.meta = meta == null ? Map.of() : meta;
    this.reconcile = reconcile;
  }

  @Override
  public McpSchema.CallToolResult proceed(String idempotencyKey) {
    Map<String, Object> m = meta;
    if (idempotencyKey != null) {
      m = new LinkedHashMap<>(meta);
      m.put(McpMetaKeys.IDEMPOTENCY_KEY, idempotencyKey);
    }
    McpSchema.CallToolResult result = client.send(new McpSchema.CallToolRequest(tool, arguments, m.isEmpty() ? null : m));
    if (Boolean.TRUE.equals(result.isError())) {
      throw new McpToolErrorException(client.qualified(tool), result, textOf(result));
    }
    return result;
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
    return arguments;
  }

  /**
   * Calls the reconcile tool with the mapped arguments: present (the reconcile answer as the result) when
   * the value at {@code found_at} is not empty, empty when it is; an error answer leaves the outcome unknown.
   */
  @Override
  public Optional<McpSchema.CallToolResult> reconcile() {
    if (reconcile == null) {
      throw new UnsupportedOperationException(client.qualified(tool) + " has no reconcile tool configured");
    }
    Map<String, Object> args = new TreeMap<>();
    reconcile.arguments().forEach((to, from) -> args.put(to, arguments.get(from)));
    McpSchema.CallToolResult answer = client.send(new McpSchema.CallToolRequest(reconcile.tool(), args, null));
    if (Boolean.TRUE.equals(answer.isError())) {
      throw new McpToolErrorException(client.qualified(reconcile.tool()), answer, textOf(answer));
    }
    JsonNode found = found(answer);
    return found == null ? Optional.empty() : Optional.of(answer);
  }

  private JsonNode found(McpSchema.CallToolResult answer) {
    JsonNode root = answer.structuredContent() != null ? JSON.valueToTree(answer.structuredContent()) : textTree(answer);
    JsonNode at = root == null ? null : root.at(JsonPointer.compile(reconcile.foundAt()));
    if (at == null || at.isMissingNode() || at.isNull() || (at.isContainerNode() && at.isEmpty())
        || (at.isTextual() && at.asText().isEmpty())) {
      return null;
    }
    return at;
  }

  /** The first text content read as JSON, for servers that answer without structured content. */
  private static JsonNode textTree(McpSchema.CallToolResult answer) {
    String text = firstText(answer.content());
    if (text == null) {
      return null;
    }
    try {
      return JSON.readTree(text);
    } catch (java.io.IOException notJson) {
      return JSON.getNodeFactory().textNode(text);
    }
  }

  private static String firstText(List<McpSchema.Content> content) {
    if (content == null) {
      return null;
    }
    for (McpSchema.Content c : content) {
      if (c instanceof McpSchema.TextContent t) {
        return t.text();
      }
    }
    return null;
  }

  /** Everything an error result says, for the classifier: its texts and its structured content. */
  static String textOf(McpSchema.CallToolResult result) {
    StringBuilder out = new StringBuilder();
    if (result.content() != null) {
      for (McpSchema.Content c : result.content()) {
        if (c instanceof McpSchema.TextContent t && t.text() != null) {
          out.append(t.text()).append('\n');
        }
      }
    }
    if (result.structuredContent() != null) {
      try {
        out.append(JSON.writeValueAsString(result.structuredContent()));
      } catch (java.io.IOException e) {
        out.append(result.structuredContent());
      }
    }
    return out.toString();
  }
}
