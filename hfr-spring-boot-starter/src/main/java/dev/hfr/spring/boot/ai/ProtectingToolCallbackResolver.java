package dev.hfr.spring.boot.ai;

import dev.hfr.spring.ai.HfrAdvisor;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.beans.factory.ObjectProvider;

/**
 * The application's {@link ToolCallbackResolver}, its callbacks protected as {@link HfrAdvisor} protects a request's:
 * a tool Spring AI finds by name (its resolution fallback, {@code spring.ai.tools.resolution.fallback.enabled}) in a
 * {@code MethodToolCallbackProvider} of a tool bean runs as HFR's callback.
 */
final class ProtectingToolCallbackResolver implements ToolCallbackResolver {

  private final ToolCallbackResolver delegate;
  private final ObjectProvider<HfrAdvisor> advisor;

  ProtectingToolCallbackResolver(ToolCallbackResolver delegate, ObjectProvider<HfrAdvisor> advisor) {
    this.delegate = delegate;
    this.advisor = advisor;
  }

  @Override
  public ToolCallback resolve(String toolName) {
    ToolCallback callback = delegate.resolve(toolName);
    HfrAdvisor hfr = advisor.getIfUnique();
    return callback == null || hfr == null ? callback : hfr.tools().protect(callback);
  }

  @Override
  public String toString() {
    return "HFR-protected " + delegate;
  }
}
