package dev.hfr.spring.boot.ai;

import dev.hfr.spring.ai.HfrToolCallbacks;
import dev.hfr.spring.boot.RecoveringToolBeans;
import java.util.ArrayList;
import java.util.List;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;

/**
 * The Spring AI callbacks of the tool beans {@link RecoveringToolBeans} made proxies, built on first use (the tool
 * beans then exist, with their own dependencies) and kept. A proxied bean without Spring AI {@code @Tool} methods (a
 * tool class written for another framework) is left out.
 */
final class RecoveringToolCallbackProvider implements ToolCallbackProvider {

  private final ConfigurableListableBeanFactory beanFactory;
  private volatile ToolCallback[] callbacks;

  RecoveringToolCallbackProvider(ConfigurableListableBeanFactory beanFactory) {
    this.beanFactory = beanFactory;
  }

  @Override
  public ToolCallback[] getToolCallbacks() {
    ToolCallback[] built = callbacks;
    if (built == null) {
      synchronized (this) {
        built = callbacks;
        if (built == null) {
          built = build();
          callbacks = built;
        }
      }
    }
    return built.clone();
  }

  private ToolCallback[] build() {
    List<Object> tools = new ArrayList<>();
    for (String name : beanFactory.getBeanDefinitionNames()) {
      BeanDefinition definition = beanFactory.getBeanDefinition(name);
      if (definition.getAttribute(RecoveringToolBeans.TOOL_CLASS_ATTRIBUTE) instanceof String toolClass
          && HfrToolCallbacks.declaresTools(beanFactory.getBeanClassLoader(), toolClass)) {
        tools.add(beanFactory.getBean(name));
      }
    }
    return tools.isEmpty() ? new ToolCallback[0] : HfrToolCallbacks.from(tools.toArray());
  }

  @Override
  public String toString() {
    return "hfrToolCallbacks" + (callbacks == null ? "[not built yet]" : java.util.Arrays.toString(callbacks));
  }
}
