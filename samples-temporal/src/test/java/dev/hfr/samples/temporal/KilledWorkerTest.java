package dev.hfr.samples.temporal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.samples.temporal.run.OrderRun;
import dev.hfr.samples.temporal.run.WorkerJvms;
import dev.hfr.samples.temporal.run.Workers;
import dev.hfr.samples.temporal.shop.FlakyShop;
import io.temporal.testserver.TestServer;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Three worker JVMs on Temporal's port-bound test server, HFR on a shared PostgreSQL ledger and fleet, services
 * failing at p = 0.3; the worker that sends the fourth write is killed by SIGKILL right after that write was
 * committed and before the answer reached it. It starts PostgreSQL and three JVMs, so it runs in the end-to-end pass
 * ({@code mvn -B verify -Pe2e}), not in the fast suite.
 */
@Tag("e2e") // three worker JVMs and PostgreSQL: the end-to-end pass (-Pe2e)
@DisplayName("Three worker JVMs, one killed mid-activity: every order workflow completes, no write twice")
class KilledWorkerTest {

  @Test
  @DisplayName("the killed worker's write is reconciled by another worker, never sent again")
  void killedWorkersWriteIsNotRepeated() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    try (TestServer.PortBoundTestServer server = TestServer.createPortBoundServer(port, true);
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        FlakyShop shop = FlakyShop.start(0.3, 11);
        WorkerJvms workers = WorkerJvms.start(3, port, shop.uri(), "kill-test", pg.getJdbcUrl("postgres", "postgres"))) {
      AtomicInteger writes = new AtomicInteger();
      AtomicInteger killed = new AtomicInteger();
      shop.onWrite((worker, route) -> {
        // the worker that sent the fourth write dies with it committed and unanswered
        if (writes.incrementAndGet() == 4) {
          int n = Integer.parseInt(worker.substring(worker.indexOf('-') + 1));
          workers.kill(n);
          killed.set(n);
        }
      });

      OrderRun.Result result = OrderRun.run("kill", Workers.client(port), "kill-test", shop, 8, Duration.ofMinutes(3));

      assertThat(killed.get()).as("a worker was killed mid-activity").isPositive();
      assertThat(workers.worker(killed.get()).isAlive()).isFalse();
      assertThat(result.completed()).as("workflows completed").isEqualTo(8);
      assertThat(result.duplicateOrders()).as("duplicate orders").isZero();
      assertThat(result.duplicateCharges()).as("duplicate charges").isZero();
      assertThat(result.duplicateEmails()).as("duplicate e-mails").isZero();
    }
  }
}
