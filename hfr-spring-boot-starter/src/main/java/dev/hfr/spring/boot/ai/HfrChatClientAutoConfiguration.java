package dev.hfr.spring.boot.ai;

import dev.hfr.runtime.Hfr;
import dev.hfr.spring.ai.HfrAdvisor;
import dev.hfr.spring.ai.HfrChatModel;
import dev.hfr.spring.ai.HfrModelCallAdvisor;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * With Spring AI's {@code ChatClient} on the class path: every {@code ChatClient} built from Boot's {@code
 * ChatClient.Builder} gets the {@link HfrAdvisor} — each {@code call()} / {@code stream()} an HFR task (the caller's, the
 * conversation's, or the request's own), and the tools given as beans ({@code defaultTools(shopTools)}) protected like
 * {@code hfrToolCallbacks}. Tools Spring AI resolves by name (its {@code ToolCallbackResolver}) are protected the same
 * way. And one retry layer for model calls, HFR's model ladder on each request ({@link HfrModelCallAdvisor}), unless
 * the application chose Spring AI's ({@link ModelRetryDefaults}). The application's own {@code HfrAdvisor} or {@code
 * HfrModelCallAdvisor} bean is used instead of the default one.
 */
@AutoConfiguration(after = HfrAutoConfiguration.class)
@ConditionalOnClass({ChatClient.class, ChatClientBuilderCustomizer.class, HfrAdvisor.class})
@ConditionalOnBean(Hfr.class)
public class HfrChatClientAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  HfrAdvisor hfrAdvisor(Hfr hfr) {
    return HfrAdvisor.of(hfr);
  }

  /**
   * HFR's model ladder on each model request, the one retry layer for model calls ({@link ModelRetryDefaults}): unless
   * the application chose Spring AI's retries by setting one of them above 0.
   */
  @Bean
  @ConditionalOnMissingBean
  HfrModelCallAdvisor hfrModelCallAdvisor(ObjectProvider<HfrChatModel.Builder> ladders, Environment environment) {
    return ModelRetryDefaults.springAiRetriesChosen(environment) ? null : new HfrModelCallAdvisor(ladders::getObject);
  }

  /**
   * Applied by Spring AI's {@code ChatClientAutoConfiguration} to every builder it hands out: the task advisor, and the
   * model ladder unless the model is already an {@link HfrChatModel} (a ladder of the application's: one is enough).
   */
  @Bean
  ChatClientBuilderCustomizer hfrChatClientBuilderCustomizer(HfrAdvisor advisor, ObjectProvider<HfrModelCallAdvisor> ladder,
      ObjectProvider<ChatModel> model) {
    return builder -> {
      builder.defaultAdvisors(advisor);
      HfrModelCallAdvisor modelCalls = ladder.getIfAvailable();
      if (modelCalls != null && !(model.getIfUnique() instanceof HfrChatModel)) {
        builder.defaultAdvisors(modelCalls);
      }
    };
  }

  /** Tools resolved by name run as protected as the ones a request carries. */
  @Bean
  static BeanPostProcessor hfrToolCallbackResolvers(ObjectProvider<HfrAdvisor> advisor) {
    return new BeanPostProcessor() {
      @Override
      public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof ToolCallbackResolver resolver && !(bean instanceof ProtectingToolCallbackResolver)) {
          return new ProtectingToolCallbackResolver(resolver, advisor);
        }
        return bean;
      }
    };
  }
}
