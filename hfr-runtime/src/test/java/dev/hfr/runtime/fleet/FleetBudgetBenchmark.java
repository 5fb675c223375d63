package dev.hfr.runtime.fleet;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.time.Clock;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Not a test: what the fleet budget adds to one retry decision ({@code TenantRetryBudgets.tryAcquire}) on one
 * worker, beside the local token bucket, in one run; and how many statements the database sees for it.
 * PostgreSQL is a real server on 127.0.0.1 behind HikariCP. The limit is high enough never to run out, so
 * every decision is a grant: one in each batch pays a lease statement. Command in docs/FLEET.md.
 */
public final class FleetBudgetBenchmark {

  public static void main(String[] args) throws Exception {
    long seconds = args.length > 0 ? Long.parseLong(args[0]) : 5;
    try (EmbeddedPostgres pg = EmbeddedPostgres.builder().start()) {
      HikariConfig config = new HikariConfig();
      config.setJdbcUrl(pg.getJdbcUrl("postgres", "postgres"));
      config.setUsername("postgres");
      config.setMaximumPoolSize(4);
      try (HikariDataSource ds = new HikariDataSource(config);
          PostgresFleet fleet = PostgresFleet.builder(ds).worker("bench").build()) {
        Clock clock = Clock.system();
        int limit = 100_000_000;
        TenantRetryBudgets local = TenantRetryBudgets.builder(clock).retriesPerWindow(limit).build();
        TenantRetryBudgets shared = TenantRetryBudgets.builder(clock).retriesPerWindow(limit).supply(fleet.retryTokens()).build();
        measure("local token bucket", local, seconds); // warm-up
        measure("fleet (PostgreSQL)", shared, seconds);
        System.out.println("| case | decisions | p50 µs | p99 µs | p99.9 µs | mean µs | lease statements |");
        System.out.println("|---|---:|---:|---:|---:|---:|---:|");
        print("local token bucket", measure("local", local, seconds), 0);
        long before = leases(ds);
        Histogram fleetLatency = measure("fleet", shared, seconds);
        print("fleet (PostgreSQL), batch " + Math.min(20, limit / 50), fleetLatency, leases(ds) - before);
      }
    }
  }

  /** Rows granted so far divided by the batch: the leases made (every lease is one statement). */
  private static long leases(HikariDataSource ds) throws Exception {
    try (Connection c = ds.getConnection(); Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT coalesce(sum(granted), 0) FROM hfr_fleet_budget")) {
      r.next();
      return r.getLong(1) / 20;
    }
  }

  private static Histogram measure(String name, TenantRetryBudgets budgets, long seconds) {
    Histogram h = new Histogram(TimeUnit.SECONDS.toNanos(10), 3);
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (System.nanoTime() < end) {
      long start = System.nanoTime();
      boolean granted = budgets.tryAcquire("acme");
      h.recordValue(System.nanoTime() - start);
      if (!granted) {
        throw new IllegalStateException(name + ": the budget ran out; raise the limit");
      }
    }
    return h;
  }

  private static void print(String name, Histogram h, long statements) {
    System.out.printf("| %s | %,d | %.2f | %.1f | %.1f | %.2f | %,d |%n", name, h.getTotalCount(),
        h.getValueAtPercentile(50) / 1e3, h.getValueAtPercentile(99) / 1e3, h.getValueAtPercentile(99.9) / 1e3,
        h.getMean() / 1e3, statements);
  }

  private FleetBudgetBenchmark() {}
}
