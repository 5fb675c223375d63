package dev.hfr.runtime.fleet;

import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakerListener;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.breaker.CircuitState;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.breaker.TripReason;
import dev.hfr.runtime.time.Clock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.postgresql.PGConnection;

/**
 * One view of each target's breaker across the fleet. A worker whose breaker opens publishes it (a row and a
 * {@code NOTIFY}); every worker listens, and also reads the rows every sync interval in case a notification
 * was missed, and holds its own breaker open until the fleet's cooldown ends. Then one worker wins the right
 * to probe (an {@code UPDATE} only one can make), the others keep their breakers open while it probes, and
 * its verdict — closed, or open again — reaches them the same way. So a recovering target gets the probes of
 * one worker, not of every worker.
 *
 * <p>The states in the table: {@code OPEN} until {@code open_until}; {@code PROBING} by {@code probe_owner}
 * until {@code probe_until} (after which another worker may take over the probe); {@code CLOSED}.
 */
final class FleetBreakers implements CircuitBreakerListener {

  static final String CHANNEL = "hfr_fleet_breaker";

  private static final String PUBLISH_OPEN = """
      INSERT INTO hfr_fleet_breaker AS b (target, state, open_until, probe_owner, probe_until, updated_by, updated_at)
      VALUES (?, 'OPEN', ?, NULL, 0, ?, ?)
      ON CONFLICT (target) DO UPDATE
        SET state = 'OPEN',
            open_until = GREATEST(CASE WHEN b.state = 'OPEN' THEN b.open_until ELSE 0 END, EXCLUDED.open_until),
            probe_owner = NULL, probe_until = 0, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at""";
  private static final String PUBLISH_CLOSED = """
      UPDATE hfr_fleet_breaker SET state = 'CLOSED', probe_owner = NULL, updated_by = ?, updated_at = ?
      WHERE target = ? AND state <> 'CLOSED' AND (probe_owner IS NULL OR probe_owner = ?)""";
  private static final String CLAIM_PROBE = """
      UPDATE hfr_fleet_breaker SET state = 'PROBING', probe_owner = ?, probe_until = ?, updated_by = ?, updated_at = ?
      WHERE target = ? AND ((state = 'OPEN' AND open_until <= ?) OR (state = 'PROBING' AND probe_until <= ?))""";
  private static final String READ_ALL =
      "SELECT target, state, open_until, probe_owner, probe_until, updated_at FROM hfr_fleet_breaker";
  private static final String NOTIFY = "SELECT pg_notify('" + CHANNEL + "', ?)";

  private final FleetLink link;
  private final Clock clock;
  private final String worker;
  private final long syncMillis;
  private final long probeMillis;
  private final List<CircuitBreakers> watched = new CopyOnWriteArrayList<>();
  /** When this worker's own breakers last opened, per target: a fleet row closed before that is stale. */
  private final Map<String, Long> ownOpenMillis = new ConcurrentHashMap<>();
  /** Publishes on its own thread: a breaker's listener must be quick, and the database may not be. */
  private final ExecutorService publisher;
  private final Thread syncThread;
  private volatile boolean closed;

  FleetBreakers(FleetLink link, Clock clock, String worker, long syncMillis, long probeMillis, javax.sql.DataSource dataSource) {
    this.link = link;
    this.clock = clock;
    this.worker = worker;
    this.syncMillis = syncMillis;
    this.probeMillis = probeMillis;
    this.publisher = Executors.newSingleThreadExecutor(r -> daemon(r, "hfr-fleet-publish"));
    this.syncThread = daemon(() -> syncLoop(dataSource), "hfr-fleet-sync");
  }

  void start() {
    syncThread.start();
  }

  void watch(CircuitBreakers breakers) {
    watched.add(breakers);
  }

  void unwatch(CircuitBreakers breakers) {
    watched.remove(breakers);
  }

  static String target(CircuitBreaker breaker) {
    return breaker.kind().tag() + ":" + breaker.name();
  }

  @Override
  public void onStateChange(CircuitBreaker breaker, CircuitState from, CircuitState to, TripReason reason) {
    if (reason == TripReason.FLEET) {
      return; // the fleet told us; nothing new to tell it
    }
    String target = target(breaker);
    if (to == CircuitState.OPEN) {
      ownOpenMillis.put(target, clock.epochMillis());
      long untilMillis = clock.epochMillis() + Math.max(0, (breaker.openUntilNanos() - clock.nanoTime()) / 1_000_000);
      publish(c -> publishOpen(c, target, untilMillis));
    } else if (to == CircuitState.CLOSED && from == CircuitState.HALF_OPEN) {
      publish(c -> publishClosed(c, target));
    }
  }

  private void publish(FleetLink.SqlWork<Integer> work) {
    try {
      publisher.execute(() -> link.call(work));
    } catch (RejectedExecutionException shuttingDown) {
      // closing: the fleet hears no more from this worker
    }
  }

  private int publishOpen(Connection c, String target, long untilMillis) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(PUBLISH_OPEN)) {
      s.setString(1, target);
      s.setLong(2, untilMillis);
      s.setString(3, worker);
      s.setLong(4, clock.epochMillis());
      s.executeUpdate();
    }
    return notify(c, target);
  }

  private int publishClosed(Connection c, String target) throws SQLException {
    int changed;
    try (PreparedStatement s = c.prepareStatement(PUBLISH_CLOSED)) {
      s.setString(1, worker);
      s.setLong(2, clock.epochMillis());
      s.setString(3, target);
      s.setString(4, worker);
      changed = s.executeUpdate();
    }
    return changed > 0 ? notify(c, target) : 0;
  }

  private static int notify(Connection c, String target) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(NOTIFY)) {
      s.setString(1, target);
      s.executeQuery().close();
    }
    return 1;
  }

  /** Listens for notifications and reads the table every sync interval; reconnects after an outage. */
  private void syncLoop(javax.sql.DataSource dataSource) {
    while (!closed) {
      if (!link.usable()) {
        sleep(syncMillis);
        continue;
      }
      try (Connection listening = dataSource.getConnection()) {
        link.ensureSchema(listening); // never read a table that may not exist yet: the server would log an error
        try (Statement s = listening.createStatement()) {
          s.execute("LISTEN " + CHANNEL);
        }
        link.reached();
        PGConnection pg = listening.unwrap(PGConnection.class);
        while (!closed) {
          applyAll(listening);
          pg.getNotifications((int) syncMillis); // wakes early on a notification, else after the interval
        }
      } catch (SQLException | RuntimeException e) {
        if (!closed) {
          link.failed(e);
        }
      }
    }
  }

  /** Brings every watched breaker in line with the fleet's rows. */
  void applyAll(Connection c) throws SQLException {
    try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(READ_ALL)) {
      while (r.next()) {
        apply(c, r.getString(1), r.getString(2), r.getLong(3), r.getString(4), r.getLong(5), r.getLong(6));
      }
    }
  }

  private void apply(Connection c, String target, String state, long openUntil, String probeOwner, long probeUntil,
      long updatedAt) throws SQLException {
    long now = clock.epochMillis();
    // Held a little past the fleet's own deadline, so this worker does not probe on its own before the
    // next sync has seen who won the probe.
    long grace = 2 * syncMillis;
    for (CircuitBreakers breakers : watched) {
      CircuitBreaker breaker = breakerOf(breakers, target);
      if (breaker == null) {
        continue;
      }
      switch (state) {
        case "OPEN" -> {
          if (openUntil > now) {
            hold(breaker, openUntil - now + grace);
          } else {
            claimOrHold(c, breaker, target, now, grace);
          }
        }
        case "PROBING" -> {
          if (worker.equals(probeOwner) && probeUntil > now) {
            continue; // this worker probes: its own half-open state decides
          }
          if (probeUntil > now) {
            hold(breaker, probeUntil - now + grace);
          } else {
            claimOrHold(c, breaker, target, now, grace);
          }
        }
        default -> {
          // Closed by the fleet after this worker's own breaker opened (or held open for the fleet): close too.
          boolean stale = updatedAt < ownOpenMillis.getOrDefault(target, Long.MIN_VALUE);
          if (breaker.state() != CircuitState.CLOSED && (breaker.lastTripReason() == TripReason.FLEET || !stale)) {
            breaker.reset();
          }
        }
      }
    }
  }

  private void claimOrHold(Connection c, CircuitBreaker breaker, String target, long now, long grace) throws SQLException {
    int claimed;
    try (PreparedStatement s = c.prepareStatement(CLAIM_PROBE)) {
      s.setString(1, worker);
      s.setLong(2, now + probeMillis);
      s.setString(3, worker);
      s.setLong(4, now);
      s.setString(5, target);
      s.setLong(6, now);
      s.setLong(7, now);
      claimed = s.executeUpdate();
    }
    if (claimed == 1) {
      hold(breaker, 0);
      breaker.probeNow();
    } else {
      hold(breaker, grace);
    }
  }

  private void hold(CircuitBreaker breaker, long millis) {
    breaker.holdOpen(clock.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
  }

  private static CircuitBreaker breakerOf(CircuitBreakers breakers, String target) {
    int colon = target.indexOf(':');
    if (colon < 0) {
      return null;
    }
    String tag = target.substring(0, colon);
    for (TargetKind kind : TargetKind.values()) {
      if (kind.tag().equals(tag)) {
        return breakers.forTarget(kind, target.substring(colon + 1));
      }
    }
    return null;
  }

  void close() {
    closed = true;
    publisher.shutdown();
    try {
      publisher.awaitTermination(2, TimeUnit.SECONDS);
      syncThread.join(syncMillis * 2 + 1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      closed = true;
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }
}
