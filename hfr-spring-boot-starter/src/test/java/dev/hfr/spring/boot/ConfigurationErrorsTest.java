package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.config.HfrPropertiesException;
import dev.hfr.spring.boot.shop.ShopApplication;
import org.junit.jupiter.api.Test;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** A wrong hfr.* property stops the application at start-up, naming the property, where it was set, and the fix. */
class ConfigurationErrorsTest {

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
      .withUserConfiguration(ShopApplication.class)
      .withBean(DecisionSink.class, DecisionSink::discarding)
      .withPropertyValues("hfr.idempotency.ledger=memory");

  @Test
  void anUnknownKeyFailsStartUpNamingIt() {
    app.withPropertyValues("hfr.retry.max-atempts=3").run(context ->
        assertThat(context).getFailure().rootCause().hasMessageContaining("hfr.retry.max-atempts"));
  }

  @Test
  void aValueOfTheWrongTypeFailsStartUpNamingTheProperty() {
    app.withPropertyValues("hfr.retry.max-attempts-per-step=many").run(context ->
        assertThat(context).getFailure()
            .hasStackTraceContaining("Failed to bind properties under 'hfr.retry.max-attempts-per-step'"));
  }

  @Test
  void valuesTheRuntimeRefusesNameThePropertyTheFileAndTheLine() {
    SpringApplicationBuilder boot = new SpringApplicationBuilder(App.class)
        .web(WebApplicationType.NONE)
        .properties("spring.config.location=classpath:/config/bad-retry.yml");

    assertThatThrownBy(boot::run).rootCause()
        .isInstanceOfSatisfying(HfrPropertiesException.class, e -> {
          assertThat(e.problems()).hasSize(2);
          assertThat(e.problems().get(0).property()).isEqualTo("hfr.retry.max-attempts-per-step");
          assertThat(e.problems().get(0).why()).contains("must be >= 1");
          assertThat(e.problems().get(0).origin()).contains("bad-retry.yml").contains("5:28");
          assertThat(e.problems().get(1).property()).isEqualTo("hfr.retry.retry-on[1]");
          assertThat(e.problems().get(1).why()).contains("T7 is never retried");
          assertThat(e.problems().get(1).origin()).contains("bad-retry.yml").contains("6:");
          assertThat(e).hasMessageStartingWith("2 invalid HFR properties:");
        });
  }

  @Test
  void aToolSectionForNoToolSuggestsTheNameMeant() {
    app.withPropertyValues("hfr.tools[StockTools.stokOf].criticality=low").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOfSatisfying(HfrPropertiesException.class, e -> {
          assertThat(e.problems()).singleElement().satisfies(p -> {
            assertThat(p.property()).isEqualTo("hfr.tools[StockTools.stokOf]");
            assertThat(p.why()).contains("StockTools.stockOf");
          });
        }));
  }

  @Test
  void aToolsAttemptTimeoutIsCheckedByTheRuntime() {
    app.withPropertyValues("hfr.tools[StockTools.stockOf].timeout-ms=0").run(context ->
        assertThat(context).getFailure().rootCause().isInstanceOfSatisfying(HfrPropertiesException.class, e ->
            assertThat(e.problems()).singleElement().satisfies(p -> {
              assertThat(p.property()).isEqualTo("hfr.tools[StockTools.stockOf].timeout-ms");
              assertThat(p.why()).contains(">= 1");
            })));
  }

  @Test
  void thePostgresLedgerWithoutADataSourceSaysWhatIsMissing() {
    app.withPropertyValues("hfr.idempotency.ledger=postgres").run(context ->
        assertThat(context).getFailure().rootCause()
            .hasMessageContaining("hfr.idempotency.ledger=postgres needs the application's DataSource, but there is none"));
  }

  @Configuration(proxyBeanMethods = false)
  @Import({ShopApplication.class, HfrAutoConfiguration.class})
  static class App {
    @Bean
    DecisionSink decisions() {
      return DecisionSink.discarding();
    }
  }
}
