package dev.hfr.spring.boot.ai;

import dev.hfr.runtime.Hfr;
import dev.hfr.spring.ai.HfrAdvisor;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientBuilderCustomizer;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * With Spring AI's {@code ChatClient} on the class path: every {@code ChatClient} built from Boot's {@code
 * ChatClient.Builder} gets the {@link HfrAdvisor} — each {@code call()} / {@code stream()} an HFR task (the caller's, the
 * conversation's, or the request's own), and the tools given as beans ({@code defaultTools(shopTools)}) protected like
 * {@code hfrToolCallbacks}. Tools Spring AI resolves by name (its {@code ToolCallbackResolver}) are protected the same
 * way. The application's own {@code HfrAdvisor} bean is used instead of the default one.
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

  /** Applied by Spring AI's {@code ChatClientAutoConfiguration} to every builder it hands out. */
  @Bean
  ChatClientBuilderCustomizer hfrChatClientBuilderCustomizer(HfrAdvisor advisor) {
    return builder -> builder.defaultAdvisors(advisor);
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
