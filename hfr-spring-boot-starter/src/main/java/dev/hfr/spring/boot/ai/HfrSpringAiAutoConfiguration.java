package dev.hfr.spring.boot.ai;

import dev.hfr.spring.ai.HfrToolCallbacks;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Spring AI and {@code hfr-spring-ai} on the class path: one {@link ToolCallbackProvider} bean,
 * {@code hfrToolCallbacks}, holding the {@code @Tool} methods of every tool bean the starter made a generated proxy.
 * A {@code ChatClient} given it ({@code .toolCallbacks(hfrToolCallbacks)} or {@code .defaultToolCallbacks(...)}) runs
 * each tool call through HFR; Spring AI's tool resolver also finds the tools by name.
 */
@AutoConfiguration(after = HfrAutoConfiguration.class)
@ConditionalOnClass({ToolCallbackProvider.class, HfrToolCallbacks.class})
public class HfrSpringAiAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "hfrToolCallbacks")
  ToolCallbackProvider hfrToolCallbacks(ConfigurableListableBeanFactory beanFactory) {
    return new RecoveringToolCallbackProvider(beanFactory);
  }
}
