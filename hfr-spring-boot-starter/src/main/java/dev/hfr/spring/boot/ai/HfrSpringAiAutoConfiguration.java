package dev.hfr.spring.boot.ai;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.spring.ai.HfrChatModel;
import dev.hfr.spring.ai.HfrToolCallbacks;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Scope;

/**
 * With Spring AI and {@code hfr-spring-ai} on the class path: one {@link ToolCallbackProvider} bean,
 * {@code hfrToolCallbacks}, holding the {@code @Tool} methods of every tool bean the starter made a generated proxy.
 * A {@code ChatClient} given it ({@code .toolCallbacks(hfrToolCallbacks)} or {@code .defaultToolCallbacks(...)}) runs
 * each tool call through HFR; Spring AI's tool resolver also finds the tools by name.
 *
 * <p>And a fresh {@link HfrChatModel.Builder} wherever one is injected (like Spring AI's {@code ChatClient.Builder}),
 * wired to the engine: its decisions go to the engine's decision sink in the caller's task, and each model call counts
 * in that task's report ({@code decisionSink(hfr)}), classified by the application's {@link FailureClassifier} bean or
 * the default one. The application adds its rungs and builds.
 */
@AutoConfiguration(after = HfrAutoConfiguration.class)
@ConditionalOnClass({ToolCallbackProvider.class, HfrToolCallbacks.class})
public class HfrSpringAiAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean(name = "hfrToolCallbacks")
  ToolCallbackProvider hfrToolCallbacks(ConfigurableListableBeanFactory beanFactory) {
    return new RecoveringToolCallbackProvider(beanFactory);
  }

  @Bean
  @Scope(ConfigurableBeanFactory.SCOPE_PROTOTYPE)
  @ConditionalOnMissingBean
  HfrChatModel.Builder hfrChatModelBuilder(Hfr hfr, ObjectProvider<FailureClassifier> classifier) {
    return HfrChatModel.builder().classifier(classifier.getIfUnique(DefaultFailureClassifier::new)).decisionSink(hfr);
  }
}
