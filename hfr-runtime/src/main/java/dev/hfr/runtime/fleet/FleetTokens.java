package dev.hfr.runtime.fleet;

import dev.hfr.runtime.budget.RetryTokens;
import dev.hfr.runtime.internal.budget.TokenBucket;
import dev.hfr.runtime.time.Clock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;

/**
 * One tenant's retry tokens drawn from the fleet's bucket: a worker leases a batch of tokens for the current
 * window in one statement and hands them out locally, so the database sees one statement per batch. The
 * database never grants more than the tenant's limit in a window, whatever the number of workers; a worker
 * that dies loses at most its unused batch (the fleet then retries a little less, never more). While the
 * database cannot be reached, the worker uses its share ({@code limit / expectedWorkers}, rounded up) of a
 * local bucket.
 *
 * <p>Windows are fixed and aligned to the epoch (every worker agrees on them through the wall clock), so, as
 * with the local token bucket, a window of the same length that straddles two of them may see up to twice
 * the limit.
 *
 * <p>Thread-safe: one monitor per tenant; only the thread that finds the batch empty talks to the database.
 */
final class FleetTokens implements RetryTokens {

  private static final String LEASE = """
      INSERT INTO hfr_fleet_budget AS b (tenant, window_start, granted, last_grant)
      VALUES (?, ?, LEAST(?, ?), LEAST(?, ?))
      ON CONFLICT (tenant, window_start) DO UPDATE
        SET granted = b.granted + LEAST(EXCLUDED.last_grant, ? - b.granted),
            last_grant = LEAST(EXCLUDED.last_grant, ? - b.granted)
      RETURNING last_grant, granted""";
  private static final String GIVE_BACK =
      "UPDATE hfr_fleet_budget SET granted = granted - ? WHERE tenant = ? AND window_start = ? AND granted >= ?";
  private static final String FORGET_OLD_WINDOWS = "DELETE FROM hfr_fleet_budget WHERE tenant = ? AND window_start < ?";

  private final String tenant;
  private final int limit;
  private final int batch;
  private final long windowMillis;
  private final Clock clock;
  private final FleetLink link;
  private final TokenBucket localShare;

  // Guarded by this.
  private long window = Long.MIN_VALUE;
  private int leased;
  private int fleetRemaining;
  private boolean exhausted;

  FleetTokens(String tenant, int limit, Duration window, int batch, int expectedWorkers, Clock clock, FleetLink link) {
    this.tenant = tenant;
    this.limit = limit;
    this.batch = Math.max(1, Math.min(batch, limit));
    this.windowMillis = Math.max(1, window.toMillis());
    this.clock = clock;
    this.link = link;
    this.localShare = new TokenBucket(clock, (limit + expectedWorkers - 1) / expectedWorkers, window);
    this.fleetRemaining = limit;
  }

  @Override
  public boolean tryAcquire() {
    if (!link.usable()) {
      return localShare.tryAcquire();
    }
    Boolean granted = takeFromFleet();
    return granted != null ? granted : localShare.tryAcquire();
  }

  /** {@code null} when the database failed just now. */
  private synchronized Boolean takeFromFleet() {
    long current = Math.floorDiv(clock.epochMillis(), windowMillis);
    if (current != window) {
      if (window != Long.MIN_VALUE) {
        forget(window);
      }
      window = current;
      leased = 0;
      exhausted = false;
      fleetRemaining = limit;
    }
    if (leased > 0) {
      leased--;
      return true;
    }
    if (exhausted || limit == 0) {
      return false;
    }
    int[] lease = link.call(c -> lease(c, current));
    if (lease == null) {
      return null;
    }
    fleetRemaining = limit - lease[1];
    if (lease[0] == 0) {
      exhausted = true;
      return false;
    }
    leased = lease[0] - 1;
    return true;
  }

  private int[] lease(Connection c, long windowStart) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(LEASE)) {
      s.setString(1, tenant);
      s.setLong(2, windowStart);
      s.setInt(3, batch);
      s.setInt(4, limit);
      s.setInt(5, batch);
      s.setInt(6, limit);
      s.setInt(7, limit);
      s.setInt(8, limit);
      try (ResultSet r = s.executeQuery()) {
        r.next();
        return new int[] {r.getInt(1), r.getInt(2)};
      }
    }
  }

  /** Deletes the tenant's rows of windows that have ended (tokens left in them have expired). */
  private void forget(long oldWindow) {
    link.call(c -> {
      try (PreparedStatement s = c.prepareStatement(FORGET_OLD_WINDOWS)) {
        s.setString(1, tenant);
        s.setLong(2, oldWindow);
        return s.executeUpdate();
      }
    });
  }

  private int giveBack(Connection c, long windowStart, int unused) throws SQLException {
    try (PreparedStatement s = c.prepareStatement(GIVE_BACK)) {
      s.setInt(1, unused);
      s.setString(2, tenant);
      s.setLong(3, windowStart);
      s.setInt(4, unused);
      return s.executeUpdate();
    }
  }

  @Override
  public synchronized void refund() {
    if (link.connected() && Math.floorDiv(clock.epochMillis(), windowMillis) == window) {
      leased++;
    } else {
      localShare.refund();
    }
  }

  @Override
  public synchronized int available() {
    if (!link.connected()) {
      return localShare.available();
    }
    return exhausted ? leased : leased + Math.max(0, fleetRemaining);
  }

  /** Returns this worker's unused tokens of the current window to the fleet (on shutdown). */
  synchronized void release() {
    if (leased > 0 && window != Long.MIN_VALUE) {
      long w = window;
      int unused = leased;
      leased = 0;
      link.call(c -> giveBack(c, w, unused));
    }
  }
}
