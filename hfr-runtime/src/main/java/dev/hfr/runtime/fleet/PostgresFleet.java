package dev.hfr.runtime.fleet;

import com.zaxxer.hikari.HikariDataSource;
import dev.hfr.runtime.breaker.CircuitBreakerListener;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.budget.RetryTokenSupply;
import dev.hfr.runtime.config.PoolSettings;
import dev.hfr.runtime.internal.jdbc.JdbcPools;
import dev.hfr.runtime.time.Clock;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.sql.DataSource;

/**
 * Makes a fleet of workers share one retry budget per tenant and one view of each target's breaker through
 * PostgreSQL (docs/FLEET.md). Give it to every worker's engine:
 *
 * <pre>{@code
 * PostgresFleet fleet = PostgresFleet.builder(dataSource).expectedWorkers(20).build();
 * Hfr hfr = Hfr.builder().fleet(fleet).build();
 * }</pre>
 *
 * <p>The database sees, per worker, one statement per leased batch of retry tokens, one per breaker state
 * change, and one read of the breaker table per sync interval (default 500 ms), plus one connection held
 * for {@code LISTEN}. When the database cannot be reached, each worker falls back to its share of each
 * budget and to its own breakers, logs it once ({@code System.Logger} {@code dev.hfr.fleet}), counts it in
 * {@code harness.fleet.fallbacks}, and rejoins when the database answers. A call never fails because
 * coordination failed; a coordination statement waits at most as long as the {@code DataSource} lets a
 * connection request wait, so give the pool a short connection timeout (e.g. 250 ms); on a JDBC URL the fleet
 * opens its own pool with such timeouts ({@code fleet.pool}). A worker that starts without its database runs on
 * its local share and joins (creating the tables) when the database answers.
 */
public final class PostgresFleet implements AutoCloseable {

  private final FleetLink link;
  private final FleetBreakers breakers;
  private final Clock clock;
  private final int expectedWorkers;
  private final int batch;
  private final List<FleetTokens> tokens = new CopyOnWriteArrayList<>();
  private final String worker;
  private final AutoCloseable ownedPool;

  private PostgresFleet(Builder b) {
    this.ownedPool = b.ownedPool;
    this.clock = b.clock;
    this.worker = b.worker;
    this.expectedWorkers = b.expectedWorkers;
    this.batch = b.batch;
    this.link = new FleetLink(b.dataSource, b.clock, b.retryInterval.toMillis(), b.worker, b.registry);
    this.breakers = new FleetBreakers(link, b.clock, b.worker, b.syncInterval.toMillis(), b.probeWindow.toMillis(), b.dataSource);
    link.call(c -> Boolean.TRUE); // creates the tables now if the database answers; else at its first answer
    breakers.start();
  }

  /** Starts a fleet on {@code dataSource} (the ledger's PostgreSQL will do). */
  public static Builder builder(DataSource dataSource) {
    return new Builder(dataSource);
  }

  /** The tenants' retry tokens: give to {@code TenantRetryBudgets.Builder.supply(...)} (the engine's {@code fleet(...)} does). */
  public RetryTokenSupply retryTokens() {
    return (tenant, limit, window) -> {
      FleetTokens t = new FleetTokens(tenant, limit, window, batchFor(limit), expectedWorkers, clock, link);
      tokens.add(t);
      return t;
    };
  }

  /**
   * Starts a fleet on the database at {@code jdbcUrl} (credentials in the URL), through a HikariCP pool with the
   * fleet's default settings ({@link PoolSettings#FLEET_DEFAULTS}: 1 s to connect, 5 s per answer), closed with
   * the fleet: a worker must not stall its calls on a database that is gone.
   */
  public static Builder builder(String jdbcUrl) {
    return builder(jdbcUrl, PoolSettings.FLEET_DEFAULTS);
  }

  /** As {@link #builder(String)}, with {@code pool}'s settings ({@code fleet.pool}). */
  public static Builder builder(String jdbcUrl, PoolSettings pool) {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    Objects.requireNonNull(pool, "pool");
    HikariDataSource ds;
    try {
      ds = JdbcPools.open(jdbcUrl, pool, "hfr-fleet");
    } catch (NoClassDefFoundError missing) {
      throw new IllegalStateException("fleet.jdbc_url needs HikariCP and the PostgreSQL driver: add com.zaxxer:HikariCP"
          + " and org.postgresql:postgresql to the application's dependencies (hfr-bom manages both versions)", missing);
    }
    Builder b = new Builder(ds);
    b.ownedPool = ds;
    return b;
  }

  /** Tells the fleet about this worker's breakers: give to {@code CircuitBreakers.Builder.listener(...)}. */
  public CircuitBreakerListener breakerListener() {
    return breakers;
  }

  /**
   * Keeps {@code registry}'s breakers in line with the fleet's; the returned handle stops that. Breakers the
   * fleet has opened are created here if this worker has not used the target yet.
   */
  public AutoCloseable watch(CircuitBreakers registry) {
    Objects.requireNonNull(registry, "registry");
    breakers.watch(registry);
    return () -> breakers.unwatch(registry);
  }

  /** Whether the fleet's database answered the last time it was asked. */
  public boolean connected() {
    return link.connected();
  }

  /** This worker's name in the fleet's tables. */
  public String worker() {
    return worker;
  }

  /** Tokens per lease: a fiftieth of the window's limit, between 1 and the configured batch. */
  private int batchFor(int limit) {
    return Math.max(1, Math.min(batch, limit / 50));
  }

  /** Returns this worker's unused tokens to the fleet and stops listening. */
  @Override
  public void close() {
    for (FleetTokens t : tokens) {
      t.release();
    }
    breakers.close();
    if (ownedPool != null) {
      try {
        ownedPool.close();
      } catch (Exception e) {
        System.getLogger("dev.hfr.fleet").log(System.Logger.Level.WARNING, "HFR fleet: closing its pool failed: " + e, e);
      }
    }
  }

  /** Builds a {@link PostgresFleet}; arguments are checked as they are given. */
  public static final class Builder {
    private final DataSource dataSource;
    private Clock clock = Clock.system();
    private String worker = ManagementFactory.getRuntimeMXBean().getName();
    private int expectedWorkers = 1;
    private int batch = 20;
    private Duration syncInterval = Duration.ofMillis(500);
    private Duration probeWindow = Duration.ofSeconds(10);
    private Duration retryInterval = Duration.ofSeconds(1);
    private MeterRegistry registry = new CompositeMeterRegistry();
    private AutoCloseable ownedPool;

    private Builder(DataSource dataSource) {
      this.dataSource = Objects.requireNonNull(dataSource, "dataSource");
    }

    /** This worker's name in the fleet's tables (default: the JVM's {@code pid@host}). */
    public Builder worker(String name) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("worker must not be blank");
      }
      this.worker = name;
      return this;
    }

    /**
     * How many workers share each budget: while the database is unreachable, each worker allows itself
     * {@code limit / expectedWorkers} retries per window (default 1: the whole limit).
     */
    public Builder expectedWorkers(int workers) {
      if (workers < 1) {
        throw new IllegalArgumentException("expectedWorkers must be at least 1, was " + workers);
      }
      this.expectedWorkers = workers;
      return this;
    }

    /** The most tokens one lease takes (default 20); a lease takes a fiftieth of the limit, at least 1. */
    public Builder maxBatch(int tokens) {
      if (tokens < 1) {
        throw new IllegalArgumentException("maxBatch must be at least 1, was " + tokens);
      }
      this.batch = tokens;
      return this;
    }

    /** How often the breaker table is read besides notifications (default 500 ms): the bound on how late a breaker state arrives. */
    public Builder syncInterval(Duration interval) {
      this.syncInterval = positive(interval, "syncInterval");
      return this;
    }

    /** How long one worker's probe of a recovering target may take before another may probe (default 10 s). */
    public Builder probeWindow(Duration window) {
      this.probeWindow = positive(window, "probeWindow");
      return this;
    }

    /** How long a worker stays on its local share after the database failed before asking again (default 1 s). */
    public Builder retryInterval(Duration interval) {
      this.retryInterval = positive(interval, "retryInterval");
      return this;
    }

    /** Where {@code harness.fleet.fallbacks} and {@code harness.fleet.connected} go (default: nowhere). */
    public Builder meterRegistry(MeterRegistry registry) {
      this.registry = Objects.requireNonNull(registry, "registry");
      return this;
    }

    /** The clock (default: the system's); windows are read from its wall-clock time. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /** Builds the fleet; it starts whether or not the database answers, and joins when it does. */
    public PostgresFleet build() {
      return new PostgresFleet(this);
    }

    private static Duration positive(Duration d, String what) {
      Objects.requireNonNull(d, what);
      if (d.isNegative() || d.isZero()) {
        throw new IllegalArgumentException(what + " must be positive, was " + d);
      }
      return d;
    }
  }
}
