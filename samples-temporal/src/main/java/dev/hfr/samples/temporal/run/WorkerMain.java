package dev.hfr.samples.temporal.run;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.fleet.PostgresFleet;
import dev.hfr.runtime.ledger.PostgresLedger;
import java.net.URI;
import java.time.Duration;

/**
 * One worker JVM of the three-worker runs: {@code <temporal port> <shop uri> <task queue> <name> <jdbc url | ->};
 * with a JDBC URL it runs HFR on the shared PostgreSQL ledger and fleet, without one on Temporal's retries alone.
 * Prints {@code ready} once it polls, then runs until killed.
 */
public final class WorkerMain {

  private WorkerMain() {}

  public static void main(String[] args) throws Exception {
    Workers.quiet();
    int port = Integer.parseInt(args[0]);
    URI shop = URI.create(args[1]);
    Hfr hfr = null;
    if (!"-".equals(args[4])) {
      hfr = engineOn(args[4]);
    }
    Workers.start(Workers.client(port), args[2], shop, args[3], hfr, false);
    System.out.println("ready");
    System.out.flush();
    Thread.currentThread().join();
  }

  /** HFR on a shared PostgreSQL: the ledger and the fleet's budgets and breakers, a 3 s lease so a dead worker's keys free up soon. */
  static Hfr engineOn(String jdbcUrl) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setMaximumPoolSize(8);
    config.setConnectionTimeout(2000);
    HikariDataSource pool = new HikariDataSource(config);
    // tag::fleet-engine[]
    return Hfr.builder().ledger(PostgresLedger.create(pool)).fleet(PostgresFleet.builder(pool).expectedWorkers(3).build())
        .leaseTtl(Duration.ofSeconds(3)).build();
    // end::fleet-engine[]
  }
}
