package dev.hfr.langchain4j.mcp;

import dev.hfr.mcp.client.HfrMcpClient;
import dev.hfr.mcp.internal.model.McpModelTool;
import dev.hfr.mcp.internal.model.McpModelTools;
import dev.langchain4j.agent.tool.ToolExecutionRequest;
import dev.langchain4j.agent.tool.ToolSpecification;
import dev.langchain4j.invocation.InvocationContext;
import dev.langchain4j.service.tool.ToolExecutionResult;
import dev.langchain4j.service.tool.ToolExecutor;
import dev.langchain4j.service.tool.ToolProvider;
import dev.langchain4j.service.tool.ToolProviderRequest;
import dev.langchain4j.service.tool.ToolProviderResult;
import java.util.List;
import java.util.Objects;

/**
 * The tools of MCP servers for a LangChain4j AI service, every call through HFR:
 *
 * <pre>{@code
 * HfrMcpClient tracker = HfrMcpClient.builder(hfr, "tracker", McpClient.sync(transport)).config(config).build();
 * Assistant assistant = AiServices.builder(Assistant.class)
 *     .chatModel(model)
 *     .toolProvider(HfrMcpToolProvider.of(tracker))
 *     .build();
 * }</pre>
 *
 * <p>Each tool is offered with the server's name, description and input schema (HFR's idempotency key is
 * never part of it: an R1 call carries the key in {@code _meta}). A call the model makes is recovered by the
 * tool's risk; its result reaches the model as text (structured content as JSON), and a failure as the
 * execution contract, marked as an error result — so the model learns that a create may have committed and
 * must not be repeated, not a stack trace. Each conversation (chat memory id) is a task of the clients' engine
 * ({@code dev.hfr.runtime.conversation.ConversationTasks.of(hfr)}: idle timeout 30 minutes), so the model calling a
 * write again in it is the same write; a call made while its thread has a task open runs in that task. The tools
 * are listed on every request, so a {@code tools/list_changed} is seen by the next one.
 */
public final class HfrMcpToolProvider implements ToolProvider {

  private final List<HfrMcpClient> clients;

  private HfrMcpToolProvider(List<HfrMcpClient> clients) {
    this.clients = List.copyOf(clients);
  }

  /**
   * The tools of {@code clients}' servers.
   *
   * @throws IllegalArgumentException without a client
   */
  public static HfrMcpToolProvider of(HfrMcpClient... clients) {
    if (clients.length == 0) {
      throw new IllegalArgumentException("give the HfrMcpClient of at least one MCP server");
    }
    for (HfrMcpClient c : clients) {
      Objects.requireNonNull(c, "client");
    }
    return new HfrMcpToolProvider(List.of(clients));
  }

  /**
   * The tools the servers list now.
   *
   * @throws IllegalStateException when two servers offer a tool of the same name
   */
  @Override
  public ToolProviderResult provideTools(ToolProviderRequest request) {
    ToolProviderResult.Builder result = ToolProviderResult.builder();
    for (McpModelTool tool : McpModelTools.of(clients)) {
      result.add(specification(tool), new Executor(tool));
    }
    return result.build();
  }

  /** Listed anew on every request: the servers' tool lists may change. */
  @Override
  public boolean isDynamic() {
    return true;
  }

  static ToolSpecification specification(McpModelTool tool) {
    return ToolSpecification.builder()
        .name(tool.name())
        .description(tool.description())
        .parameters(McpJsonSchemas.object(tool.inputSchema()))
        .build();
  }

  /** Runs one tool call of the model through HFR; a failure is an error result holding the contract. */
  private static final class Executor implements ToolExecutor {
    private final McpModelTool tool;

    Executor(McpModelTool tool) {
      this.tool = tool;
    }

    @Override
    public ToolExecutionResult executeWithContext(ToolExecutionRequest request, InvocationContext context) {
      McpModelTool.Answer answer = call(request, context == null ? null : context.chatMemoryId());
      return ToolExecutionResult.builder().isError(answer.error()).resultText(answer.text()).build();
    }

    @Override
    public String execute(ToolExecutionRequest request, Object memoryId) {
      return call(request, memoryId).text();
    }

    /** The call in its conversation's task (the memory id's), unless the calling thread has a task open. */
    private McpModelTool.Answer call(ToolExecutionRequest request, Object memoryId) {
      return tool.call(request.arguments(), memoryId, tool.defaultConversations());
    }
  }
}
