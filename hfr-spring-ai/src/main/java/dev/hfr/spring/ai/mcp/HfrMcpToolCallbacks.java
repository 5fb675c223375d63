package dev.hfr.spring.ai.mcp;

import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.internal.model.McpModelTool;
import dev.hfr.mcp.internal.model.McpModelTools;
import dev.hfr.spring.ai.HfrToolCallback;
import java.util.List;
import java.util.Objects;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.definition.ToolDefinition;

/**
 * The tools of MCP servers as Spring AI tool callbacks, every call through HFR:
 *
 * <pre>{@code
 * HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(transport)).config(config).build();
 * ChatClient chat = ChatClient.builder(chatModel)
 *     .defaultToolCallbacks(HfrMcpToolCallbacks.of(tracker))
 *     .build();
 * }</pre>
 *
 * <p>Each tool is offered with the server's name, description and input schema (HFR's idempotency key is never
 * part of it: an R1 call carries the key in {@code _meta}). A call is recovered by the tool's risk; its result
 * reaches the model as text (structured content as JSON), a failure as the execution contract — never a stack
 * trace, and never a blind resend of a write whose outcome is unknown. A call runs in the task of the conversation
 * its tool context names under {@code ChatMemory.CONVERSATION_ID} ({@code
 * dev.hfr.runtime.conversation.ConversationTasks.of(hfr)}: idle timeout 30 minutes), so the model calling a write
 * again in it is the same write; a call made while its thread has a task open runs in that task. The callbacks are
 * built from the tools the servers list when {@link #getToolCallbacks()} is called.
 */
public final class HfrMcpToolCallbacks implements ToolCallbackProvider {

  private final List<HfrMcpClient> clients;

  private HfrMcpToolCallbacks(List<HfrMcpClient> clients) {
    this.clients = List.copyOf(clients);
  }

  /**
   * The tools of {@code clients}' servers.
   *
   * @throws IllegalArgumentException without a client
   */
  public static HfrMcpToolCallbacks of(HfrMcpClient... clients) {
    if (clients.length == 0) {
      throw new IllegalArgumentException("give the HfrMcpClient of at least one MCP server");
    }
    for (HfrMcpClient c : clients) {
      Objects.requireNonNull(c, "client");
    }
    return new HfrMcpToolCallbacks(List.of(clients));
  }

  /**
   * One callback per tool the servers list now.
   *
   * @throws IllegalStateException when two servers offer a tool of the same name
   */
  @Override
  public ToolCallback[] getToolCallbacks() {
    return McpModelTools.of(clients).stream().map(Callback::new).toArray(ToolCallback[]::new);
  }

  /** One MCP tool as a Spring AI tool callback. */
  private static final class Callback implements ToolCallback {
    private final McpModelTool tool;
    private final ToolDefinition definition;

    Callback(McpModelTool tool) {
      this.tool = tool;
      this.definition = ToolDefinition.builder()
          .name(tool.name())
          .description(tool.description())
          .inputSchema(tool.inputSchemaJson())
          .build();
    }

    @Override
    public ToolDefinition getToolDefinition() {
      return definition;
    }

    @Override
    public String call(String toolInput) {
      return tool.call(toolInput).text();
    }

    /** The call in the task of the conversation its tool context names, unless the calling thread has a task open. */
    @Override
    public String call(String toolInput, ToolContext toolContext) {
      Object conversationId = HfrToolCallback.CONVERSATION_ID_FROM_TOOL_CONTEXT.apply(toolContext);
      return tool.call(toolInput, conversationId, tool.defaultConversations()).text();
    }

    @Override
    public String toString() {
      return "HfrMcpToolCallback[" + tool.qualifiedName() + "]";
    }
  }
}
