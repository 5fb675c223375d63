package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.Lease;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * Renews the lease of every write in flight a third of its TTL after the last renewal, so a lease can
 * be short — a dead holder's keys free within one TTL — and still never lapse under a live call however
 * long it runs. One daemon thread per JVM does every renewal (a renewal is one ledger statement); a
 * renewal that fails to reach the ledger is retried at the next beat, and the lease then lapses only if
 * the ledger stays unreachable for the rest of the TTL — in which case the fencing token refuses the
 * holder's late writes.
 */
final class LeaseHeartbeat {

  private static final ScheduledThreadPoolExecutor BEATS = newExecutor();

  private LeaseHeartbeat() {}

  private static ScheduledThreadPoolExecutor newExecutor() {
    ScheduledThreadPoolExecutor e = new ScheduledThreadPoolExecutor(1, r -> {
      Thread t = new Thread(r, "hfr-lease-heartbeat");
      t.setDaemon(true);
      return t;
    });
    e.setRemoveOnCancelPolicy(true); // a finished call's beat leaves nothing behind
    return e;
  }

  /** Starts renewing {@code lease} on {@code ledger} for {@code ttl} each time, until {@link Beat#stop}. */
  static Beat start(IdempotencyLedger ledger, Lease lease, Duration ttl) {
    Beat beat = new Beat(ledger, lease, ttl);
    long period = Math.max(1, ttl.toMillis() / 3);
    beat.future = BEATS.scheduleWithFixedDelay(beat::renew, period, period, TimeUnit.MILLISECONDS);
    return beat;
  }

  /** The renewals of one lease. */
  static final class Beat {
    private final IdempotencyLedger ledger;
    private final Duration ttl;
    private volatile Lease lease;
    private volatile boolean lost;
    private volatile ScheduledFuture<?> future;

    private Beat(IdempotencyLedger ledger, Lease lease, Duration ttl) {
      this.ledger = ledger;
      this.lease = lease;
      this.ttl = ttl;
    }

    private void renew() {
      try {
        Optional<Lease> renewed = ledger.renewLease(lease, ttl);
        if (renewed.isPresent()) {
          lease = renewed.get();
        } else {
          lost = true; // taken over after it lapsed: the fencing token refuses this holder from now on
          stop();
        }
      } catch (RuntimeException unreachable) {
        // The ledger did not answer this beat: the next one tries again while the lease still runs.
      }
    }

    /** Whether a renewal found the lease taken over. */
    boolean lost() {
      return lost;
    }

    /** Stops renewing; returns the latest lease (to release). */
    Lease stop() {
      ScheduledFuture<?> f = future;
      if (f != null) {
        f.cancel(false);
      }
      return lease;
    }
  }
}
