package dev.hfr.mcp.internal.model;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.client.McpToolRisk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.contract.ToolExecutionContract;
import dev.hfr.runtime.conversation.ConversationTasks;
import dev.hfr.runtime.conversation.ModelAnswers;
import io.modelcontextprotocol.spec.McpSchema;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One MCP tool as a model sees it. The schema is the server's: HFR's own idempotency key never appears in it
 * (an R1 call carries its key in the request's {@code _meta}, not in the arguments), so the model cannot
 * invent or reuse one. A call runs through {@link HfrMcpClient}, so it is recovered by the tool's risk; what
 * comes back is text for the model:
 *
 * <ul>
 *   <li>the result: its structured content as JSON, otherwise its text contents; a result from a rung of
 *       the ladder ({@code degrade_to}) inside a task comes as the contract with the result embedded
 *       ({@code "degraded":true} and its level), so the model knows it reads a fallback; a result the engine
 *       answered from the ledger (the model called a write its conversation already made) comes as the contract
 *       with {@code "replayed":true} and the advice not to call again;
 *   <li>a failure: the execution contract ({@link ToolExecutionContract}) — status, F2D-9 class, whether it
 *       may be retried, whether a side effect may have happened — with {@link ModelAnswers}' advice ({@code
 *       call_again}, {@code message}), never a stack trace;
 *   <li>arguments that are not a JSON object: the contract of an unsent call ({@code invalid_arguments}).
 * </ul>
 */
public final class McpModelTool {

  private static final ObjectMapper JSON = new ObjectMapper();

  private final HfrMcpClient client;
  private final McpSchema.Tool tool;

  McpModelTool(HfrMcpClient client, McpSchema.Tool tool) {
    this.client = client;
    this.tool = tool;
  }

  /** The answer of one call: the text for the model, and whether it reports a failure. */
  public record Answer(String text, boolean error, ToolOutcome outcome) {}

  /** The tool's MCP name (the name the model calls it by). */
  public String name() {
    return tool.name();
  }

  /** The server's description of the tool, or its title, or its name. */
  public String description() {
    if (tool.description() != null && !tool.description().isBlank()) {
      return tool.description();
    }
    return tool.title() != null ? tool.title() : tool.name();
  }

  /** The name HFR gives the tool in events, meters and contracts: {@code <server>.<tool>}. */
  public String qualifiedName() {
    return client.server() + "." + tool.name();
  }

  /** The tool's input schema as the server listed it (an object schema). */
  public ObjectNode inputSchema() {
    JsonNode schema = tool.inputSchema() == null ? null : JSON.valueToTree(tool.inputSchema());
    if (schema instanceof ObjectNode o) {
      return o.deepCopy();
    }
    ObjectNode empty = JSON.createObjectNode();
    empty.put("type", "object");
    empty.putObject("properties");
    return empty;
  }

  /** The input schema as JSON text. */
  public String inputSchemaJson() {
    return inputSchema().toString();
  }

  /** The risk HFR recovers the tool at. */
  public Risk risk() {
    McpToolRisk r = client.risk(tool.name());
    return r == null ? Risk.R3 : r.effective();
  }

  /**
   * Calls the tool in the task of conversation {@code conversationId} of {@code conversations} (joined for the
   * length of the call): unless the calling thread has a task of the engine open, which wins, or there is no id or
   * no conversation tasks, and the call runs as {@link #call(String)} does.
   */
  public Answer call(String argumentsJson, Object conversationId, ConversationTasks conversations) {
    boolean join = conversations != null && conversationId != null && !(conversationId instanceof String s && s.isBlank())
        && conversations.engine() == client.engine() && conversations.engine().currentTask().isEmpty();
    if (!join) {
      return call(argumentsJson);
    }
    try (ConversationTasks.Joined joined = conversations.join(conversationId)) {
      return call(argumentsJson);
    }
  }

  /** The engine's default conversation tasks ({@link ConversationTasks#of(Hfr)}), or {@code null} for another engine. */
  public ConversationTasks defaultConversations() {
    return client.engine() instanceof Hfr hfr ? ConversationTasks.of(hfr) : null;
  }

  /**
   * Calls the tool with the model's arguments (a JSON object; blank means none) through HFR.
   *
   * @return the result or the failure's execution contract, as text for the model
   */
  public Answer call(String argumentsJson) {
    Map<String, Object> arguments;
    try {
      arguments = arguments(argumentsJson);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      return new Answer(ModelAnswers.withAdvice(ToolExecutionContract.renderUnmanaged(qualifiedName(), risk(),
          "invalid_arguments", Fault.T5, true, false)), true, null);
    }
    Optional<TaskScope> task = client.engine() instanceof Hfr hfr ? hfr.currentTask() : Optional.empty();
    ToolOutcome before = task.map(TaskScope::lastOutcome).orElse(null);
    try {
      String text = textOf(client.callTool(tool.name(), arguments));
      ToolOutcome after = task.map(TaskScope::lastOutcome).orElse(null);
      if (after != null && after != before && after.status() == ToolOutcome.Status.SUCCESS
          && qualifiedName().equals(after.tool())) {
        if (ModelAnswers.isReplay(after)) {
          return new Answer(ModelAnswers.renderReplay(after, text), false, after);
        }
        if (after.degraded()) {
          return new Answer(ToolExecutionContract.renderSuccess(after, text), false, after);
        }
      }
      return new Answer(text, false, null);
    } catch (ToolCallException e) {
      return new Answer(ModelAnswers.render(e.outcome()), true, e.outcome());
    }
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> arguments(String json) throws JsonProcessingException {
    if (json == null || json.isBlank()) {
      return Map.of();
    }
    JsonNode node = JSON.readTree(json);
    if (node == null || node.isNull()) {
      return Map.of();
    }
    if (!node.isObject()) {
      throw new IllegalArgumentException("tool arguments must be a JSON object");
    }
    return JSON.convertValue(node, LinkedHashMap.class);
  }

  /** The result as the model reads it: structured content as JSON, otherwise the text contents. */
  static String textOf(McpSchema.CallToolResult result) {
    if (result.structuredContent() != null) {
      try {
        return JSON.writeValueAsString(result.structuredContent());
      } catch (JsonProcessingException e) {
        return String.valueOf(result.structuredContent());
      }
    }
    StringBuilder out = new StringBuilder();
    if (result.content() != null) {
      for (McpSchema.Content c : result.content()) {
        if (c instanceof McpSchema.TextContent t && t.text() != null) {
          if (out.length() > 0) {
            out.append('\n');
          }
          out.append(t.text());
        }
      }
    }
    return out.toString();
  }
}
