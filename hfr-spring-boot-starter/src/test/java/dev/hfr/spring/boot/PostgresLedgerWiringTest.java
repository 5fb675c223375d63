package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.PostgresLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.shop.ReservationTools;
import dev.hfr.spring.boot.shop.ShopApplication;
import dev.hfr.spring.boot.shop.StockService;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import javax.sql.DataSource;
import dev.hfr.runtime.fleet.PostgresFleet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code hfr.idempotency.ledger=postgres} puts the ledger, and {@code hfr.fleet.enabled=true} the fleet's shared
 * budgets, in the application's own database (a real PostgreSQL).
 */
class PostgresLedgerWiringTest {

  private static EmbeddedPostgres pg;
  private static DataSource dataSource;

  @BeforeAll
  static void startPostgres() throws Exception {
    pg = EmbeddedPostgres.builder().start();
    dataSource = pg.getPostgresDatabase();
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    pg.close();
  }

  @Test
  void writesAreRecordedInTheApplicationsDataSource() throws Exception {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
        .withUserConfiguration(ShopApplication.class)
        .withBean(DecisionSink.class, DecisionSink::discarding)
        .withBean(DataSource.class, () -> dataSource)
        .withPropertyValues("hfr.idempotency.ledger=postgres", "hfr.retry.base-delay-ms=0", "hfr.retry.max-delay-ms=0")
        .run(context -> {
          assertThat(context.getBean(IdempotencyLedger.class)).isInstanceOf(PostgresLedger.class);
          context.getBean(StockService.class).failNext(1);
          try (TaskScope task = context.getBean(Hfr.class).openTask(TaskSpec.builder("acme", "order-1").build())) {
            context.getBean(ReservationTools.class).reserve("sku-1", null);
          }
          assertThat(context.getBean(StockService.class).reservationKeys()).hasSize(1);
          try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
              ResultSet rows = s.executeQuery("select count(*) from hfr_ledger where tool = 'ReservationTools.reserve'")) {
            rows.next();
            assertThat(rows.getInt(1)).as("the write's ledger record, in the application's database").isEqualTo(1);
          }
        });
  }

  @Test
  void aFleetMemberTakesItsRetriesFromTheApplicationsDataSource() throws Exception {
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
        .withUserConfiguration(ShopApplication.class)
        .withBean(DecisionSink.class, DecisionSink::discarding)
        .withBean(DataSource.class, () -> dataSource)
        // No share of the calls (retry-ratio 0): the retry can only come from the floor, the fleet's bucket.
        .withPropertyValues("hfr.idempotency.ledger=memory", "hfr.fleet.enabled=true", "hfr.fleet.expected-workers=4",
            "hfr.retry.base-delay-ms=0", "hfr.retry.max-delay-ms=0", "hfr.retry.retry-ratio=0")
        .run(context -> {
          assertThat(context).hasSingleBean(PostgresFleet.class);
          context.getBean(StockService.class).failNext(1);
          try (TaskScope task = context.getBean(Hfr.class).openTask(TaskSpec.builder("fleet-tenant", "order-2").build())) {
            context.getBean(ReservationTools.class).reserve("sku-2", null);
            assertThat(task.report().retryCount()).isEqualTo(1);
          }
          try (Connection c = dataSource.getConnection(); Statement s = c.createStatement();
              ResultSet rows = s.executeQuery("select sum(granted) from hfr_fleet_budget where tenant = 'fleet-tenant'")) {
            rows.next();
            assertThat(rows.getInt(1)).as("the retry's token, leased from the fleet's bucket").isPositive();
          }
        });
  }
}
