package dev.hfr.runtime.ledger.internal;

import java.util.HashMap;
import java.util.Map;

/**
 * For each key whose latest must-be-forced frame (a prepare, a lease grant, a removal, a move back to
 * PREPARED) is not forced yet, where that frame ends in the journal. An operation that writes nothing
 * that must be forced — an attempt's outcome, a lease renewal or release, a read — then waits only for
 * what its own key's state rests on, instead of for every other thread's prepare appended meanwhile;
 * that is what lets one force carry one whole call per thread.
 *
 * <p>Entries at or below the forced position are stale; they are dropped in bulk whenever the table has
 * doubled since the last sweep, so the cost per operation stays constant however many threads wait. Not
 * thread-safe: used under the ledger's lock.
 */
public final class UnforcedKeys {

  private static final int MIN_SWEEP_SIZE = 256;

  private record TenantKey(String tenant, String key) {}

  private final Map<TenantKey, Long> ends = new HashMap<>();
  private int sweepAbove = MIN_SWEEP_SIZE;

  /** Records that a must-be-forced frame of this key ends at logical position {@code end}. */
  public void wrote(String tenant, String key, long end) {
    ends.put(new TenantKey(tenant, key), end);
  }

  /**
   * The logical position that must be forced before the state of this key may be acted on, or 0 if
   * everything it rests on is forced already ({@code forced} is the writer's forced position).
   */
  public long mustForce(String tenant, String key, long forced) {
    if (ends.size() > sweepAbove) {
      ends.values().removeIf(end -> end <= forced);
      sweepAbove = Math.max(MIN_SWEEP_SIZE, 2 * ends.size());
    }
    Long end = ends.get(new TenantKey(tenant, key));
    return end == null || end <= forced ? 0 : end;
  }

  /** Entries held, stale ones included. */
  int size() {
    return ends.size();
  }
}
