package dev.hfr.runtime.docs;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.fleet.PostgresFleet;

/**
 * docs/FLEET.md's example, compiled by the build so every type and method the page names is real (running it
 * needs a PostgreSQL server; {@code FleetTest} runs fleets on an embedded one).
 */
final class FleetUse {

  /** The application's agent work, between building the engine and closing it. */
  interface Work {
    void run(Hfr hfr);
  }

  private FleetUse() {}

  static void worker(HikariDataSource pool, Work work) {
    // tag::fleet[]
    // pool: the application's HikariDataSource; the ledger's pool will do; give it a short connectionTimeout
    PostgresFleet fleet = PostgresFleet.builder(pool)  // creates its two tables if absent (or when the database answers)
        .expectedWorkers(20)                           // the local share while the database is unreachable
        .build();
    Hfr hfr = Hfr.builder().ledgerDataSource(pool).fleet(fleet).build();
    work.run(hfr);
    hfr.close();
    fleet.close();                                     // gives this worker's unused tokens back
    // end::fleet[]
  }
}
