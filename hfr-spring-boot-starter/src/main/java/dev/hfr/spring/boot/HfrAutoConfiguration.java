package dev.hfr.spring.boot;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.approval.ApprovalGate;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.config.FleetSettings;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.IdempotencySettings;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.fleet.PostgresFleet;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerOptions;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.ledger.Ledgers;
import dev.hfr.runtime.observation.ToolCallObservationConvention;
import dev.hfr.runtime.registry.ToolRegistry;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.config.HfrProperties;
import dev.hfr.spring.boot.config.HfrPropertiesConfig;
import dev.hfr.spring.boot.config.HfrPropertiesException;
import dev.hfr.spring.boot.config.PropertyOrigins;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import java.nio.file.Path;
import java.util.List;
import javax.sql.DataSource;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;

/**
 * Auto-configures HFR: the {@code hfr.*} properties as the runtime's configuration, the ledger they name, the
 * engine on the application's {@link MeterRegistry} and {@link ObservationRegistry} (one Observation, so one span
 * with a tracing bridge, per tool call), and the generated
 * {@code _Recovering} proxies in place of the tool beans they protect. Every bean backs off when the application
 * defines its own.
 */
@AutoConfiguration(afterName = {
    "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
    "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
    "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration"})
@EnableConfigurationProperties(HfrProperties.class)
public class HfrAutoConfiguration {

  /** The tool beans become their generated proxies before any of them is created. */
  @Bean
  static RecoveringToolBeans hfrRecoveringToolBeans() {
    return new RecoveringToolBeans();
  }

  /** The tools the compiled catalogs list, for checking the {@code hfr.tools} entries against them. */
  @Bean
  @ConditionalOnMissingBean
  ToolRegistry hfrToolRegistry(ResourceLoader resources) {
    return ToolRegistry.load(resources.getClassLoader());
  }

  @Bean
  @ConditionalOnMissingBean
  HfrConfig hfrConfig(HfrProperties properties, ToolRegistry tools, Environment environment) {
    PropertyOrigins origins = PropertyOrigins.of(environment);
    if (environment.getProperty("hfr") != null) {
      // `hfr:` with nothing under it, or a value where the mapping belongs: nothing below would bind
      throw new HfrPropertiesException(List.of(new HfrPropertiesException.Problem("hfr", origins.describe("hfr"),
          "is empty or not a mapping (was \"" + environment.getProperty("hfr") + "\"); HFR's settings go under it,"
              + " indented, e.g. `hfr:`, then `  retry:`, then `    max-attempts-per-step: 3`; remove the line to keep"
              + " the defaults")));
    }
    HfrConfig config = HfrPropertiesConfig.toConfig(properties, origins);
    HfrPropertiesConfig.check(config, tools.tools(), origins);
    return config;
  }

  /**
   * The ledger {@code hfr.idempotency.ledger} names, closed with the context: {@code postgres} on
   * {@code hfr.idempotency.jdbc-url} or else the application's own DataSource, {@code embedded} in
   * {@code hfr.idempotency.path}, {@code memory} only when asked for.
   */
  @Bean
  @ConditionalOnMissingBean
  IdempotencyLedger hfrLedger(HfrConfig config, ObjectProvider<DataSource> dataSource) {
    IdempotencySettings settings = config.idempotency();
    LedgerOptions options = settings.ledgerOptions(Clock.system());
    return switch (settings.ledger()) {
      case "postgres" -> {
        if (settings.jdbcUrl() != null) {
          yield Ledgers.postgres(settings.jdbcUrl(), settings.pool(), options);
        }
        DataSource ds = dataSource.getIfUnique();
        if (ds == null) {
          throw new IllegalStateException("hfr.idempotency.ledger=postgres needs the application's DataSource, but "
              + (dataSource.stream().findAny().isPresent() ? "there are several and none is @Primary" : "there is none")
              + ": add spring-boot-starter-jdbc and spring.datasource.url, mark one DataSource @Primary, or set"
              + " hfr.idempotency.jdbc-url");
        }
        yield Ledgers.postgres(ds, options);
      }
      case "memory" -> Ledgers.inMemory(options);
      default -> Ledgers.embedded(Path.of(settings.path()), options);
    };
  }

  /**
   * The fleet {@code hfr.fleet.enabled=true} asks for, closed with the context (its unused retry tokens go back):
   * on {@code hfr.fleet.jdbc-url}, else the ledger's {@code hfr.idempotency.jdbc-url}, else the application's
   * DataSource.
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  @ConditionalOnProperty(prefix = "hfr.fleet", name = "enabled", havingValue = "true")
  PostgresFleet hfrFleet(HfrConfig config, ObjectProvider<DataSource> dataSource, ObjectProvider<MeterRegistry> meterRegistry) {
    FleetSettings settings = config.fleet();
    String url = settings.jdbcUrl() != null ? settings.jdbcUrl()
        : "postgres".equals(config.idempotency().ledger()) ? config.idempotency().jdbcUrl() : null;
    PostgresFleet.Builder builder;
    if (url != null) {
      builder = PostgresFleet.builder(url, settings.pool());
    } else {
      DataSource ds = dataSource.getIfUnique();
      if (ds == null) {
        throw new IllegalStateException("hfr.fleet.enabled=true needs a database, but the application has "
            + (dataSource.stream().findAny().isPresent() ? "several DataSources and none is @Primary" : "no DataSource")
            + ": set hfr.fleet.jdbc-url, add spring-boot-starter-jdbc and spring.datasource.url, or mark one"
            + " DataSource @Primary");
      }
      builder = PostgresFleet.builder(ds);
    }
    meterRegistry.ifUnique(builder::meterRegistry);
    if (settings.worker() != null) {
      builder.worker(settings.worker());
    }
    return builder.expectedWorkers(settings.expectedWorkers()).maxBatch(settings.batchSize())
        .syncInterval(java.time.Duration.ofMillis(settings.syncIntervalMs())).build();
  }

  /** Where escalations wait when the application has no handler of its own; the {@code hfr} endpoint lists them. */
  @Bean
  @ConditionalOnMissingBean(EscalationHandler.class)
  EscalationQueue hfrEscalations() {
    return new EscalationQueue();
  }

  @Bean
  @ConditionalOnMissingBean
  Hfr hfr(HfrConfig config, HfrProperties properties, IdempotencyLedger ledger, EscalationHandler escalations,
      ObjectProvider<MeterRegistry> meterRegistry, ObjectProvider<ObservationRegistry> observationRegistry,
      ObjectProvider<ToolCallObservationConvention> observationConvention,
      ObjectProvider<ApprovalGate> approvalGate, ObjectProvider<DecisionSink> decisionSink,
      ObjectProvider<FailureClassifier> classifier, ObjectProvider<PostgresFleet> fleet) {
    Hfr.Builder builder = Hfr.builder()
        .config(config)
        .checkConfig(false) // hfrConfig(...) checked it against the application's registry, naming the properties
        .ledger(ledger)
        .escalationHandler(escalations)
        .mode(properties.mode() != null ? properties.mode() : HfrMode.ENFORCE);
    meterRegistry.ifUnique(builder::meterRegistry);
    observationRegistry.ifUnique(builder::observationRegistry);
    observationConvention.ifUnique(builder::observationConvention);
    approvalGate.ifUnique(builder::approvalGate);
    decisionSink.ifUnique(builder::decisionSink);
    classifier.ifUnique(builder::classifier);
    fleet.ifUnique(builder::fleet);
    return builder.build();
  }

}
