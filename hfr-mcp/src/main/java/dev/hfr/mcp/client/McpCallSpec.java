package dev.hfr.mcp.client;

import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.mcp.McpMetaKeys;
import dev.hfr.runtime.ToolDescriptor;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;

/**
 * One {@code tools/call} as HFR runs it, whichever client sends it: the requests of its attempts (R1 ones
 * carry the ledger key in {@code _meta}), of its reconcile tool and of its rungs, and how an answer is
 * judged ({@code isError} is a failure for the classifier, never a result).
 */
final class McpCallSpec {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final McpWire wire;
  private final String tool;
  private final Map<String, Object> arguments;
  private final Map<String, Object> meta;
  private final McpReconcile reconcile;
  private final List<McpToolMapping.Rung> rungs;
  private final ToolDescriptor descriptor;

  McpCallSpec(McpWire wire, String tool, Map<String, Object> arguments, Map<String, Object> meta,
      McpReconcile reconcile, List<McpToolMapping.Rung> rungs, ToolDescriptor descriptor) {
    this.wire = wire;
    this.tool = tool;
    // sorted, so the canonical form (and the ledger key) does not depend on the caller's map order
    this.arguments = arguments == null ? Map.of() : new TreeMap<>(arguments);
    this.meta = meta == null ? Map.of() : meta;
    this.reconcile = reconcile;
    this.rungs = rungs;
    this.descriptor = descriptor;
  }

  ToolDescriptor descriptor() {
    return descriptor;
  }

  McpWire wire() {
    return wire;
  }

  Map<String, Object> arguments() {
    return arguments;
  }

  /** The request of one attempt. */
  McpSchema.CallToolRequest request(String idempotencyKey) {
    Map<String, Object> m = meta;
    if (idempotencyKey != null) {
      m = new LinkedHashMap<>(meta);
      m.put(McpMetaKeys.IDEMPOTENCY_KEY, idempotencyKey);
    }
    return new McpSchema.CallToolRequest(tool, arguments, m.isEmpty() ? null : m);
  }

  /** The answer of an attempt: an {@code isError} result is thrown for the classifier. */
  McpSchema.CallToolResult judge(String server, String name, McpSchema.CallToolResult result) {
    if (Boolean.TRUE.equals(result.isError())) {
      throw new McpToolErrorException(server + "." + name, result, textOf(result));
    }
    return result;
  }

  McpSchema.CallToolResult judge(McpSchema.CallToolResult result) {
    return judge(wire.server(), tool, result);
  }

  /** Rung {@code index} sent through its server's client, waited for. */
  McpSchema.CallToolResult degrade(int index) {
    McpToolMapping.Rung rung = rung(index);
    return judge(rung.wire().server(), rung.settings().tool(), rung.wire().send(rungRequest(rung)));
  }

  /** Rung {@code index} sent through its server's client. */
  CompletableFuture<McpSchema.CallToolResult> degradeAsync(int index) {
    McpToolMapping.Rung rung = rung(index);
    return rung.wire().sendAsync(rungRequest(rung))
        .thenApply(r -> judge(rung.wire().server(), rung.settings().tool(), r));
  }

  private McpToolMapping.Rung rung(int index) {
    if (index < 0 || index >= rungs.size()) {
      throw new IndexOutOfBoundsException(wire.server() + "." + tool + " has no degradation rung " + index);
    }
    return rungs.get(index);
  }

  private McpSchema.CallToolRequest rungRequest(McpToolMapping.Rung rung) {
    Map<String, String> mapping = rung.settings().arguments();
    Map<String, Object> args = mapping.isEmpty() ? arguments : mapped(mapping);
    return new McpSchema.CallToolRequest(rung.settings().tool(), args, null);
  }

  private Map<String, Object> mapped(Map<String, String> mapping) {
    Map<String, Object> args = new TreeMap<>();
    mapping.forEach((to, from) -> args.put(to, arguments.get(from)));
    return args;
  }

  /**
   * Calls the reconcile tool with the mapped arguments and waits: present (the reconcile answer as the
   * result) when the value at {@code found_at} says the write is there, empty when it says it is not; an
   * error answer, or a value that says neither, leaves the outcome unknown (thrown).
   *
   * @throws McpReconcileUnreadableException when the value at {@code found_at} is missing, null or of a type
   *     that says neither present nor absent
   */
  Optional<McpSchema.CallToolResult> reconcile() {
    if (reconcile == null) {
      throw new UnsupportedOperationException(wire.server() + "." + tool + " has no reconcile tool configured");
    }
    McpSchema.CallToolResult answer = judge(wire.server(), reconcile.tool(),
        wire.send(new McpSchema.CallToolRequest(reconcile.tool(), mapped(reconcile.arguments()), null)));
    return found(answer) ? Optional.of(answer) : Optional.empty();
  }

  /**
   * Whether the reconcile answer says the write is there. A boolean is its value; a list, an object or a
   * text is there when not empty. Anything else (missing, null, a number) cannot be read as present or
   * absent: counting it as either could lose or duplicate the write, so the outcome stays unknown.
   */
  private boolean found(McpSchema.CallToolResult answer) {
    JsonNode root = answer.structuredContent() != null ? JSON.valueToTree(answer.structuredContent()) : textTree(answer);
    JsonNode at = root == null ? null : root.at(JsonPointer.compile(reconcile.foundAt()));
    if (at != null && at.isBoolean()) {
      return at.booleanValue();
    }
    if (at != null && (at.isContainerNode() || at.isTextual())) {
      return at.isContainerNode() ? !at.isEmpty() : !at.asText().isEmpty();
    }
    throw new McpReconcileUnreadableException(wire.server() + "." + reconcile.tool(), reconcile.foundAt(),
        at == null || at.isMissingNode() ? "missing" : at.isNull() ? "null" : at.getNodeType().name().toLowerCase(java.util.Locale.ROOT));
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
