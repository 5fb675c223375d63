package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.actuate.HfrActuatorAutoConfiguration;
import dev.hfr.spring.boot.actuate.HfrEndpoint;
import dev.hfr.spring.boot.actuate.HfrHealthIndicator;
import dev.hfr.spring.boot.shop.ShopApplication;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** An application whose PostgreSQL is down at start-up starts, says so in Actuator, and rejoins when it answers. */
@DisplayName("The starter with PostgreSQL down at start-up: the application starts, Actuator shows it, it rejoins")
class DatabaseDownTest {

  @Test
  @DisplayName("ledger and fleet on a database nothing answers: start-up succeeds, /actuator/hfr and health say"
      + " writes are refused; once PostgreSQL starts on that port both are back")
  void startsAndRejoins() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    String url = "jdbc:postgresql://127.0.0.1:" + port + "/postgres?user=postgres";
    new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrActuatorAutoConfiguration.class))
        .withUserConfiguration(ShopApplication.class)
        .withBean(DecisionSink.class, DecisionSink::discarding)
        .withPropertyValues("hfr.idempotency.ledger=postgres", "hfr.idempotency.jdbc-url=" + url, "hfr.fleet.enabled=true",
            "hfr.fleet.pool.connect-timeout-ms=300", "management.endpoints.web.exposure.include=hfr,health")
        .run(context -> {
          assertThat(context).hasNotFailed();
          HfrEndpoint endpoint = context.getBean(HfrEndpoint.class);
          HfrEndpoint.Report down = endpoint.report();
          assertThat(down.storage().ledger()).isEqualTo("PostgresLedger");
          assertThat(down.storage().ledgerAvailable()).isFalse();
          assertThat(down.storage().fleetConnected()).isFalse();
          assertThat(down.resumable()).isNull();
          HfrHealthIndicator health = context.getBean(HfrHealthIndicator.class);
          assertThat(health.health(true).getStatus()).isEqualTo(Status.DOWN);
          assertThat(health.health(true).getDetails()).containsEntry("ledgerAvailable", false);

          try (EmbeddedPostgres pg = EmbeddedPostgres.builder().setPort(port).start()) {
            long deadline = System.nanoTime() + 20_000_000_000L;
            HfrEndpoint.Report up = endpoint.report();
            while ((!up.storage().ledgerAvailable() || !up.storage().fleetConnected()) && System.nanoTime() < deadline) {
              Thread.sleep(50);
              up = endpoint.report();
            }
            assertThat(up.storage().ledgerAvailable()).isTrue();
            assertThat(up.storage().fleetConnected()).isTrue();
            assertThat(up.storage().ledgerOutages()).isEqualTo(1);
            assertThat(up.resumable()).isNotNull();
            assertThat(health.health(true).getStatus()).isEqualTo(Status.UP);
          }
        });
  }
}
