package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.EmbeddedFileLedger;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.shop.ReservationTools;
import dev.hfr.spring.boot.shop.ShopApplication;
import dev.hfr.spring.boot.shop.StockService;
import dev.hfr.spring.boot.shop.StockTools;
import dev.hfr.spring.boot.shop.StockTools_Recovering;
import dev.hfr.runtime.observation.ToolCallContext;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** What a Spring Boot application gets from the starter, on a real application context. */
class HfrAutoConfigurationTest {

  private final List<DecisionEvent> decisions = new CopyOnWriteArrayList<>();

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
      .withUserConfiguration(ShopApplication.class)
      .withBean(DecisionSink.class, () -> decisions::add)
      .withPropertyValues("hfr.idempotency.ledger=memory", "hfr.retry.base-delay-ms=0", "hfr.retry.max-delay-ms=0");

  @Test
  void aToolBeanIsItsGeneratedProxyBuiltWithTheBeansItsConstructorNeeds() {
    app.run(context -> {
      StockTools tools = context.getBean(StockTools.class);
      StockService stock = context.getBean(StockService.class);
      assertThat(tools).isInstanceOf(StockTools_Recovering.class);

      stock.failNext(2);
      assertThat(tools.stockOf("sku-1")).isEqualTo("sku-1: 7 in stock");
      assertThat(stock.calls()).as("two refused connections retried, through the injected service").isEqualTo(3);
      assertThat(decisions).extracting(DecisionEvent::tool).containsOnly("StockTools.stockOf");
    });
  }

  @ParameterizedTest
  @ValueSource(strings = {"hfr.retry.max-attempts-per-step", "hfr.retry.maxAttemptsPerStep", "hfr.retry.max_attempts_per_step"})
  void retryPropertiesReachTheEngineInEveryRelaxedSpelling(String key) {
    app.withPropertyValues(key + "=2").run(context -> {
      StockService stock = context.getBean(StockService.class);
      stock.failNext(5);
      assertThatThrownBy(() -> context.getBean(StockTools.class).stockOf("sku-1")).isInstanceOf(ToolCallException.class);
      assertThat(stock.calls()).as("2 attempts, the first included").isEqualTo(2);
    });
  }

  @Test
  void aToolsOwnSectionIsKeyedByItsNameInBrackets() {
    app.withPropertyValues("hfr.tools[StockTools.stockOf].retry.max-attempts-per-step=1").run(context -> {
      StockService stock = context.getBean(StockService.class);
      stock.failNext(5);
      assertThatThrownBy(() -> context.getBean(StockTools.class).stockOf("sku-1")).isInstanceOf(ToolCallException.class);
      assertThat(stock.calls()).isEqualTo(1);
    });
  }

  @Test
  void theModePropertyStartsTheEngineInThatMode() {
    app.withPropertyValues("hfr.mode=off").run(context -> {
      assertThat(context.getBean(Hfr.class).mode()).isEqualTo(HfrMode.OFF);
      StockService stock = context.getBean(StockService.class);
      stock.failNext(1);
      assertThatThrownBy(() -> context.getBean(StockTools.class).stockOf("sku-1"))
          .as("OFF is the kill switch: the tool's own failure, no retry").hasRootCauseMessage("Connection refused");
      assertThat(stock.calls()).isEqualTo(1);
    });
  }

  @Test
  void theEngineCountsInTheApplicationsMeterRegistry() {
    app.withBean(MeterRegistry.class, SimpleMeterRegistry::new).run(context -> {
      context.getBean(StockService.class).failNext(1);
      context.getBean(StockTools.class).stockOf("sku-1");
      assertThat(context.getBean(MeterRegistry.class).find("harness.attempts").tag("tool", "StockTools.stockOf").counters())
          .isNotEmpty();
    });
  }

  @Test
  void everyToolCallIsAnObservationInTheApplicationsRegistry() {
    List<ToolCallContext> observed = new CopyOnWriteArrayList<>();
    ObservationRegistry registry = ObservationRegistry.create();
    registry.observationConfig().observationHandler(new ObservationHandler<ToolCallContext>() {
      @Override
      public void onStop(ToolCallContext context) {
        observed.add(context);
      }

      @Override
      public boolean supportsContext(Observation.Context context) {
        return context instanceof ToolCallContext;
      }
    });
    app.withBean(ObservationRegistry.class, () -> registry).run(context -> {
      context.getBean(StockService.class).failNext(1);
      context.getBean(StockTools.class).stockOf("sku-1");
      assertThat(observed).singleElement().satisfies(c -> {
        assertThat(c.getContextualName()).isEqualTo("execute_tool StockTools.stockOf");
        assertThat(c.getLowCardinalityKeyValue("hfr.action").getValue()).isEqualTo("RETRY");
      });
    });
  }

  @Test
  void theMemoryLedgerOnlyWhenAskedForAndTheEmbeddedOneWhereThePropertySays(@TempDir Path dir) {
    app.run(context -> assertThat(context.getBean(IdempotencyLedger.class)).isInstanceOf(InMemoryLedger.class));
    Path ledgerDir = dir.resolve("ledger");
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
        .withBean(DecisionSink.class, DecisionSink::discarding)
        .withPropertyValues("hfr.idempotency.path=" + ledgerDir)
        .run(context -> {
          assertThat(context.getBean(IdempotencyLedger.class)).isInstanceOf(EmbeddedFileLedger.class);
          assertThat(Files.list(ledgerDir)).as("the embedded ledger's files").isNotEmpty();
        });
  }

  @Test
  void escalationsWaitInAQueueUnlessTheApplicationHandlesThemItself() {
    // a gate of the application's that says no (without one, the approval would wait in the inbox instead)
    var app = this.app.withBean(dev.hfr.runtime.approval.ApprovalGate.class, dev.hfr.runtime.approval.ApprovalGate::denyAll);
    app.run(context -> {
      assertThatThrownBy(() -> context.getBean(ReservationTools.class).cancelAll("test")).isInstanceOf(ToolCallException.class);
      assertThat(context.getBean(EscalationQueue.class).pending()).extracting(EvidenceBundle::tool)
          .containsExactly("ReservationTools.cancelAll");
    });
    List<EvidenceBundle> handled = new CopyOnWriteArrayList<>();
    app.withBean(EscalationHandler.class, () -> handled::add).run(context -> {
      assertThat(context).doesNotHaveBean(EscalationQueue.class);
      assertThatThrownBy(() -> context.getBean(ReservationTools.class).cancelAll("test")).isInstanceOf(ToolCallException.class);
      assertThat(handled).extracting(EvidenceBundle::tool).containsExactly("ReservationTools.cancelAll");
    });
  }

  @Test
  void anEngineOfTheApplicationsOwnWins() {
    Hfr own = Hfr.builder().ledger(dev.hfr.runtime.ledger.Ledgers.inMemory(
        dev.hfr.runtime.ledger.LedgerOptions.defaults())).decisionSink(DecisionSink.discarding()).build();
    app.withBean(Hfr.class, () -> own).run(context -> assertThat(context.getBean(Hfr.class)).isSameAs(own));
  }
}
