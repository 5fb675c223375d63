package dev.hfr.spring.boot.actuate;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.fleet.PostgresFleet;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The {@code hfr} endpoint and health indicator, in applications that have Actuator. */
@AutoConfiguration(after = HfrAutoConfiguration.class)
@ConditionalOnClass(name = "org.springframework.boot.actuate.endpoint.annotation.Endpoint")
@ConditionalOnBean(Hfr.class)
public class HfrActuatorAutoConfiguration {

  @Bean
  @ConditionalOnMissingBean
  @ConditionalOnAvailableEndpoint
  HfrEndpoint hfrEndpoint(Hfr hfr, ObjectProvider<EscalationQueue> escalations, ObjectProvider<HfrConfig> config,
      ObjectProvider<PostgresFleet> fleet) {
    HfrConfig c = config.getIfAvailable(HfrConfig::defaults);
    return new HfrEndpoint(hfr, escalations.getIfUnique(), c.configuredTenants(), fleet.getIfUnique());
  }

  /** Only where Spring Boot's health module is present. */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(HealthIndicator.class)
  @ConditionalOnEnabledHealthIndicator("hfr")
  static class Health {

    @Bean
    @ConditionalOnMissingBean(name = "hfrHealthIndicator")
    HfrHealthIndicator hfrHealthIndicator(Hfr hfr) {
      return new HfrHealthIndicator(hfr);
    }
  }
}
