package dev.hfr.spring.boot.inbox;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.inbox.InboxListener;
import dev.hfr.runtime.inbox.NewItemListener;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The inbox in Spring Boot: the {@code hfrinbox} Actuator endpoint where Actuator is present, and the application's
 * inbox listeners (a webhook for new items, a hook that resumes answered conversations) attached to the engine's inbox.
 */
@AutoConfiguration(after = HfrAutoConfiguration.class)
@ConditionalOnBean(Hfr.class)
public class HfrInboxAutoConfiguration {

  /**
   * Hands the application's {@link NewItemListener} beans (an {@link dev.hfr.runtime.inbox.InboxWebhook}, a chat
   * notifier) and {@link InboxListener} beans (resume a conversation once answered) to the inbox.
   */
  @Bean
  SmartInitializingSingleton hfrInboxListeners(Hfr hfr, ObjectProvider<NewItemListener> filed,
      ObjectProvider<InboxListener> answered) {
    return () -> {
      filed.orderedStream().forEach(hfr.inbox()::onFiled);
      answered.orderedStream().forEach(hfr.inbox()::onAnswered);
    };
  }

  /** Only where Actuator is present. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
  static class Endpoint {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnAvailableEndpoint
    HfrInboxEndpoint hfrInboxEndpoint(Hfr hfr) {
      return new HfrInboxEndpoint(hfr.inbox());
    }
  }
}
