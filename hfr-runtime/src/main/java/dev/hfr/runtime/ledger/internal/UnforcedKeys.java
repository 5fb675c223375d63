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
 * <p>Entries at or below the forced position are stale and dropped in bulk once they pile up. Not
 * thread-safe: used under the ledger's lock.
 */
public final class UnforcedKeys {

  private static final int PRUNE_ABOVE = 256;

  private record TenantKey(String tenant, String key) {}

  private final Map<TenantKey, Long> ends = new HashMap<>();

  /** Records that a must-be-forced frame of this key ends at logical position {@code end}. */
  public void wrote(String tenant, String key, long end) {
    ends.put(new TenantKey(tenant, key), end);
  }

  /**
   * The logical position that must be forced before the state of this key may be acted on, or 0 if
   * everything it rests on is forced already ({@code forced} is the writer's forced position).
   */
  public long mustForce(String tenant, String key, long forced) {
    if (ends.size() > PRUNE_ABOVE) {
      ends.values().removeIf(end -> end <= forced);
    }
    Long end = ends.get(new TenantKey(tenant, key));
    return end == null || end <= forced ? 0 : end;
  }
}
