package dev.hfr.spring.boot.temporal;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.TenantPolicy;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.config.HfrProperties;
import dev.hfr.spring.boot.config.HfrPropertiesException;
import dev.hfr.spring.boot.config.PropertyOrigins;
import dev.hfr.temporal.HfrWorkerInterceptor;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * With {@code hfr-temporal} and Temporal's Spring Boot starter on the class path: a {@link HfrWorkerInterceptor}
 * bean, which Temporal's auto-configuration puts on every worker factory it creates (it collects the application's
 * {@code WorkerInterceptor} beans), so each activity attempt runs the tools it calls as the HFR task of its workflow
 * execution. Configured by {@code hfr.temporal.*}; {@code hfr.temporal.enabled=false} or a {@link
 * HfrWorkerInterceptor} bean of the application's own turns it off.
 *
 * <p>A bean rather than a {@code TemporalOptionsCustomizer}: Temporal's starter applies only one customizer per
 * options type, so one of HFR's would displace the application's; it adds every interceptor bean.
 */
@AutoConfiguration(after = HfrAutoConfiguration.class, beforeName = {
    "io.temporal.spring.boot.autoconfigure.TestServerAutoConfiguration",
    "io.temporal.spring.boot.autoconfigure.RootNamespaceAutoConfiguration"})
@ConditionalOnClass(value = HfrWorkerInterceptor.class,
    name = "io.temporal.spring.boot.autoconfigure.RootNamespaceAutoConfiguration")
@ConditionalOnProperty(prefix = "hfr.temporal", name = "enabled", havingValue = "true", matchIfMissing = true)
public class HfrTemporalAutoConfiguration {

  private static final String PREFIX = "hfr.temporal.";

  @Bean
  @ConditionalOnMissingBean
  HfrWorkerInterceptor hfrWorkerInterceptor(Hfr hfr, HfrConfig config, HfrProperties properties,
      Environment environment) {
    HfrProperties.Temporal temporal = properties.temporal() != null ? properties.temporal()
        : new HfrProperties.Temporal(null, null, null, null, null, null, null);
    PropertyOrigins origins = PropertyOrigins.of(environment);
    List<HfrPropertiesException.Problem> problems = new ArrayList<>();
    HfrWorkerInterceptor.Builder builder = HfrWorkerInterceptor.builder(hfr);

    String tenant = temporal.tenant() != null ? temporal.tenant() : Hfr.DEFAULT_TENANT;
    if (tenant.isBlank()) {
      problems.add(problem(origins, "tenant", "must not be blank; leave it out for the tenant \"" + Hfr.DEFAULT_TENANT
          + "\""));
    } else {
      builder.tenant(tenant);
    }
    // The interceptor's limits replace the tenant's configured ones (a TaskSpec's limits do): give it those.
    builder.limits(limitsOf(config.tenant(tenant)));
    if (temporal.laterAttemptRetries() != null) {
      if (temporal.laterAttemptRetries() < 0) {
        problems.add(problem(origins, "later-attempt-retries", "must be >= 0 (HFR's retries in an activity's second"
            + " and later attempts; 0 leaves every retry to Temporal), was " + temporal.laterAttemptRetries()));
      } else {
        builder.laterAttemptRetries(temporal.laterAttemptRetries());
      }
    }
    if (temporal.deadlineMarginMs() != null) {
      if (temporal.deadlineMarginMs() < 0) {
        problems.add(problem(origins, "deadline-margin-ms", "must be >= 0 (the part of the attempt's timeout HFR leaves"
            + " to Temporal), was " + temporal.deadlineMarginMs()));
      } else {
        builder.deadlineMargin(Duration.ofMillis(temporal.deadlineMarginMs()));
      }
    }
    if (temporal.taskPerRun() != null) {
      builder.taskPerRun(temporal.taskPerRun());
    }
    if (temporal.criticality() != null) {
      builder.criticality(temporal.criticality());
    }
    boolean retryUnknown = Boolean.TRUE.equals(temporal.retryUnknownOutcomes());
    if (retryUnknown && (!hfr.features().idempotency() || !config.idempotency().enabled())) {
      problems.add(problem(origins, "retry-unknown-outcomes", "needs the idempotency ledger, which is off"
          + " (hfr.idempotency.enabled=false): a retried attempt would send the write again; turn the ledger on or"
          + " leave this out"));
    }
    if (!problems.isEmpty()) {
      throw new HfrPropertiesException(problems);
    }
    return builder.retryUnknownOutcomes(retryUnknown).build();
  }

  private static HfrPropertiesException.Problem problem(PropertyOrigins origins, String key, String why) {
    return new HfrPropertiesException.Problem(PREFIX + key, origins.describe(PREFIX + key), why);
  }

  /** The task limits the configuration gives the tenant: its section under hfr.tenants, else hfr.limits and hfr.retry. */
  private static TaskLimits limitsOf(TenantPolicy tenant) {
    return TaskLimits.builder()
        .maxTurns(tenant.maxTurns())
        .maxToolCalls(tenant.maxToolCalls())
        .maxSameToolCalls(tenant.maxSameToolCalls())
        .maxRetries(tenant.maxRetriesPerTask())
        .maxWallTime(Duration.ofMillis(tenant.maxWallTimeMs()))
        .maxCost(tenant.maxCost())
        .maxWriteActions(tenant.maxWriteActions())
        .build();
  }
}
