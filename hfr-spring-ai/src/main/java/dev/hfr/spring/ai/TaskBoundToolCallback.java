package dev.hfr.spring.ai;

import io.micrometer.context.ContextSnapshot;
import java.util.Objects;
import org.springframework.ai.chat.model.ToolContext;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.definition.ToolDefinition;
import org.springframework.ai.tool.metadata.ToolMetadata;

/**
 * A tool that is not HFR's (a plain object's, an MCP server's), unchanged but for one thing: a call Spring AI makes on
 * a stream's thread binds the stream's HFR task, so the generated proxies the tool calls in turn join it.
 */
final class TaskBoundToolCallback implements ToolCallback {

  private final ToolCallback delegate;

  TaskBoundToolCallback(ToolCallback delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  @Override
  public ToolDefinition getToolDefinition() {
    return delegate.getToolDefinition();
  }

  @Override
  public ToolMetadata getToolMetadata() {
    return delegate.getToolMetadata();
  }

  @Override
  public String call(String toolInput) {
    return call(toolInput, null);
  }

  @Override
  public String call(String toolInput, ToolContext toolContext) {
    try (ContextSnapshot.Scope task = TaskInReactorContext.bindFromToolCall()) {
      return toolContext == null ? delegate.call(toolInput) : delegate.call(toolInput, toolContext);
    }
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
