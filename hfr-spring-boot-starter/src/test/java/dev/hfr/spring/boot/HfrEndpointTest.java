package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.actuate.HfrActuatorAutoConfiguration;
import dev.hfr.spring.boot.actuate.HfrEndpoint;
import dev.hfr.spring.boot.actuate.HfrHealthIndicator;
import dev.hfr.spring.boot.shop.ReservationTools;
import dev.hfr.spring.boot.shop.ShopApplication;
import dev.hfr.spring.boot.shop.StockService;
import dev.hfr.spring.boot.shop.StockTools;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The Actuator view: breakers, budgets, escalations, resumable writes and cut-off tasks; the mode switch; the health indicator. */
class HfrEndpointTest {

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrActuatorAutoConfiguration.class))
      .withUserConfiguration(ShopApplication.class)
      .withBean(DecisionSink.class, DecisionSink::discarding)
      // a gate of the application's that says no: the refused approval is an escalation (without one it would wait in the inbox)
      .withBean(dev.hfr.runtime.approval.ApprovalGate.class, dev.hfr.runtime.approval.ApprovalGate::denyAll)
      .withPropertyValues("hfr.idempotency.ledger=memory", "hfr.retry.base-delay-ms=0", "hfr.retry.max-delay-ms=0",
          "hfr.circuit-breaker.consecutive-failures=3", "hfr.tenants.acme.retry.max-retries-per-tenant-per-min=50",
          "management.endpoints.web.exposure.include=hfr,health");

  @Test
  void theReportShowsTheOpenBreakerTheBudgetsTheEscalationsAndTheWriteToReconcile() {
    app.run(context -> {
      StockService stock = context.getBean(StockService.class);
      stock.failNext(100);
      for (int call = 0; call < 3; call++) {
        assertThatThrownBy(() -> context.getBean(StockTools.class).stockOf("sku-1")).isInstanceOf(ToolCallException.class);
      }
      ReservationTools reservations = context.getBean(ReservationTools.class);
      try (TaskScope task = context.getBean(Hfr.class).openTask(TaskSpec.builder("acme", "order-7").build())) {
        assertThatThrownBy(() -> reservations.cancelAll("customer left")).isInstanceOf(ToolCallException.class);
        stock.timeOut();
        assertThatThrownBy(() -> reservations.reserve("sku-1", null)).isInstanceOf(ToolCallException.class);
      }

      // Another engine on the same ledger opens a task and never closes it, as if its process died (its task
      // starts are saved at open: by default a task is checkpointed from its first write on).
      try (Hfr other = Hfr.builder().ledger(context.getBean(Hfr.class).ledger()).checkpointTasksAtOpen(true).build()) {
        other.newTask(TaskSpec.builder("acme", "order-8").build());
      }

      HfrEndpoint.Report report = context.getBean(HfrEndpoint.class).report();

      assertThat(report.mode()).isEqualTo(HfrMode.ENFORCE);
      assertThat(report.breakers()).filteredOn(b -> b.name().equals("default:StockTools.stockOf"))
          .singleElement().satisfies(b -> {
            assertThat(b.state()).isEqualTo("OPEN");
            assertThat(b.timesOpened()).isEqualTo(1);
          });
      assertThat(report.budgets().tenants()).extracting(HfrEndpoint.TenantBudget::tenant).contains("acme", "default");
      assertThat(report.budgets().tenants()).filteredOn(t -> t.tenant().equals("acme"))
          .singleElement().satisfies(t -> assertThat(t.limit()).isEqualTo(50));
      assertThat(report.escalations().pending()).as("the refused approval and the write of unknown outcome").isEqualTo(2);
      assertThat(report.escalations().oldest()).extracting(HfrEndpoint.Escalation::tool)
          .containsExactly("ReservationTools.cancelAll", "ReservationTools.reserve");
      assertThat(report.escalations().oldest()).extracting(HfrEndpoint.Escalation::taskId).containsOnly("order-7");
      assertThat(report.resumable().pending()).as("the timed-out write, outcome unknown").isEqualTo(1);
      assertThat(report.resumable().oldest()).singleElement().satisfies(w -> {
        assertThat(w.tool()).isEqualTo("ReservationTools.reserve");
        assertThat(w.state()).isEqualTo("UNKNOWN");
      });
      assertThat(report.resumable().tasks()).as("order-7 closed; order-8 was cut off").isEqualTo(1);
      assertThat(report.resumable().oldestTasks()).singleElement().satisfies(t -> {
        assertThat(t.taskId()).isEqualTo("order-8");
        assertThat(t.phase()).isEqualTo("STARTED");
        assertThat(t.unfinishedWrites()).isZero();
      });
    });
  }

  @Test
  void theWriteOperationSwitchesTheMode() {
    app.run(context -> {
      HfrEndpoint.Report report = context.getBean(HfrEndpoint.class).mode(HfrMode.SHADOW);
      assertThat(report.mode()).isEqualTo(HfrMode.SHADOW);
      assertThat(context.getBean(Hfr.class).mode()).isEqualTo(HfrMode.SHADOW);
    });
  }

  @Test
  void healthIsUpWithTheOpenBreakersAndDownWhenTheLedgerCannotBeRead() {
    app.run(context -> {
      context.getBean(StockService.class).failNext(100);
      for (int call = 0; call < 3; call++) {
        assertThatThrownBy(() -> context.getBean(StockTools.class).stockOf("sku-1")).isInstanceOf(ToolCallException.class);
      }
      HfrHealthIndicator health = context.getBean(HfrHealthIndicator.class);
      assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
      assertThat(health.health(true).getDetails()).containsEntry("mode", "ENFORCE")
          .extractingByKey("openBreakers").asList().containsExactly("TOOL default:StockTools.stockOf OPEN");

      context.getBean(Hfr.class).ledger().close();
      assertThat(health.health(true).getStatus()).isEqualTo(Status.DOWN);
    });
  }

  @Test
  void theEndpointStaysAwayUnlessExposed() {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrActuatorAutoConfiguration.class))
        .withBean(DecisionSink.class, DecisionSink::discarding)
        .withPropertyValues("hfr.idempotency.ledger=memory")
        .run(context -> assertThat(context).doesNotHaveBean(HfrEndpoint.class).hasSingleBean(HfrHealthIndicator.class));
  }
}
