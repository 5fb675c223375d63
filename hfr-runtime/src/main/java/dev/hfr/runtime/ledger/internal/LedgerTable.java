package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Prepared;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The ledger's records in memory, keyed by (tenant, key), applying {@link LedgerRules}. Every change is
 * first handed to the {@link Persister}; only when it returns is the change applied in memory, so a
 * failed write changes nothing. Not thread-safe: the owning backend serialises calls.
 */
public final class LedgerTable {

  /** Makes a change durable (or at least ordered) before it is applied in memory. */
  public interface Persister {
    void put(StoredEntry entry);

    /**
     * Persists the outcome of an attempt (a transition out of PREPARED). A backend may acknowledge it
     * before it is forced: if a power loss takes it back, the record is PREPARED again, which crash resume
     * turns into UNKNOWN and the next call reconciles — the path any crash during the attempt takes.
     */
    default void putOutcome(StoredEntry entry) {
      put(entry);
    }

    /**
     * Persists a change of a key's lease holder or expiry alone (a renewal, a release), never of its
     * fencing token. A backend whose leases do not survive reopening may acknowledge it before it is forced.
     */
    default void putLeaseHolder(StoredEntry entry) {
      put(entry);
    }

    void remove(StoredEntry entry);
  }

  private record TenantKey(String tenant, String key) {}

  private final Map<TenantKey, StoredEntry> entries = new HashMap<>();
  private final Persister persister;

  public LedgerTable(Persister persister) {
    this.persister = persister;
  }

  public LedgerRecord prepare(String tenant, String key, String tool, String argsHash, long nowMillis) {
    LedgerRules.checkPrepare(tenant, key, tool, argsHash);
    StoredEntry existing = entries.get(new TenantKey(tenant, key));
    if (existing != null) {
      LedgerRules.checkSameIntent(existing.record(), tool, argsHash);
      return existing.record();
    }
    StoredEntry fresh = LedgerRules.newEntry(tenant, key, tool, argsHash, nowMillis);
    store(fresh);
    return fresh.record();
  }

  public Prepared prepareIfAbsent(String tenant, String key, String tool, String argsHash, String owner, Duration ttl, long nowMillis) {
    LedgerRules.checkPrepare(tenant, key, tool, argsHash);
    LedgerRules.checkLease(tenant, key, owner, ttl);
    StoredEntry existing = entries.get(new TenantKey(tenant, key));
    if (existing != null) {
      LedgerRules.checkSameIntent(existing.record(), tool, argsHash);
      return new Prepared(existing.record(), false, null);
    }
    StoredEntry fresh = LedgerRules.newLeasedEntry(tenant, key, tool, argsHash, owner, ttl, nowMillis);
    store(fresh);
    return new Prepared(fresh.record(), true, LedgerRules.leaseOf(fresh));
  }

  public Optional<Lease> renewLease(Lease lease, Duration ttl, long nowMillis) {
    LedgerRules.checkLease(lease.tenant(), lease.key(), lease.owner(), ttl);
    StoredEntry next = LedgerRules.applyRenew(entries.get(new TenantKey(lease.tenant(), lease.key())), lease, ttl, nowMillis);
    if (next == null) {
      return Optional.empty();
    }
    persister.putLeaseHolder(next);
    entries.put(new TenantKey(lease.tenant(), lease.key()), next);
    return Optional.of(LedgerRules.leaseOf(next));
  }

  public Optional<Lease> currentLease(String tenant, String key, long nowMillis) {
    LedgerRules.checkTenantKey(tenant, key);
    return Optional.ofNullable(LedgerRules.liveLease(entries.get(new TenantKey(tenant, key)), nowMillis));
  }

  /**
   * Forgets the lease holders of loaded records without writing anything: for a ledger only one process
   * can open at a time, every lease found on open belonged to a process that has since died. Fencing
   * tokens stay, so tokens on a key still only grow.
   */
  public void forgetLeaseHolders() {
    entries.replaceAll((k, e) -> e.leaseOwner() == null ? e : new StoredEntry(e.record(), null, 0L));
  }

  public LedgerRecord transition(
      String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken, long nowMillis) {
    LedgerRules.checkTransition(tenant, key, expected, target, resultHash);
    StoredEntry next = LedgerRules.applyTransition(
        entries.get(new TenantKey(tenant, key)), tenant, key, expected, target, resultHash, fencingToken, nowMillis);
    if (expected == LedgerState.PREPARED) {
      persister.putOutcome(next);
      entries.put(new TenantKey(tenant, key), next);
    } else {
      store(next);
    }
    return next.record();
  }

  public Optional<LedgerRecord> find(String tenant, String key) {
    LedgerRules.checkTenantKey(tenant, key);
    StoredEntry e = entries.get(new TenantKey(tenant, key));
    return e == null ? Optional.empty() : Optional.of(e.record());
  }

  public Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl, long nowMillis) {
    LedgerRules.checkLease(tenant, key, owner, ttl);
    StoredEntry next = LedgerRules.applyLease(entries.get(new TenantKey(tenant, key)), tenant, key, owner, ttl, nowMillis);
    if (next == null) {
      return Optional.empty();
    }
    store(next);
    return Optional.of(LedgerRules.leaseOf(next));
  }

  public void releaseLease(Lease lease) {
    StoredEntry next = LedgerRules.applyRelease(entries.get(new TenantKey(lease.tenant(), lease.key())), lease);
    if (next != null) {
      persister.putLeaseHolder(next);
      entries.put(new TenantKey(lease.tenant(), lease.key()), next);
    }
  }

  public List<LedgerRecord> pending() {
    List<LedgerRecord> out = new ArrayList<>();
    for (StoredEntry e : entries.values()) {
      if (e.record().state().needsReconcile()) {
        out.add(e.record());
      }
    }
    out.sort(Comparator.comparing(LedgerRecord::createdAt).thenComparing(LedgerRecord::tenant).thenComparing(LedgerRecord::key));
    return out;
  }

  public int expire(long cutoffMillis) {
    int removed = 0;
    for (Iterator<StoredEntry> it = entries.values().iterator(); it.hasNext(); ) {
      StoredEntry e = it.next();
      if (LedgerRules.expiredBy(e, cutoffMillis)) {
        persister.remove(e);
        it.remove();
        removed++;
      }
    }
    return removed;
  }

  /** Loads an entry read back from storage, without persisting it again. */
  public void load(StoredEntry e) {
    entries.put(new TenantKey(e.tenant(), e.key()), e);
  }

  /** Drops an entry whose deletion was read back from storage. */
  public void unload(String tenant, String key) {
    entries.remove(new TenantKey(tenant, key));
  }

  public Collection<StoredEntry> entries() {
    return entries.values();
  }

  public int size() {
    return entries.size();
  }

  private void store(StoredEntry e) {
    persister.put(e);
    entries.put(new TenantKey(e.tenant(), e.key()), e);
  }
}
