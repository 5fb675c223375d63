package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Prepared;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

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

    /**
     * Persists a task's checkpoint; only an escalation's must be durable before it is acknowledged (see
     * {@link dev.hfr.runtime.ledger.IdempotencyLedger#saveCheckpoint}).
     */
    default void putTask(TaskCheckpoint checkpoint) {}

    /** Persists the deletion of a closed task's checkpoint. */
    default void removeTask(TaskCheckpoint checkpoint) {}
  }

  private record TenantKey(String tenant, String key) {}

  private final Map<TenantKey, StoredEntry> entries = new HashMap<>();
  /** The latest checkpoint per (tenant, task id), in the order tasks were first checkpointed. */
  private final Map<TenantKey, TaskCheckpoint> tasks = new LinkedHashMap<>();
  /** The keys of each task's records, in creation order: a task's unfinished writes without a full scan. */
  private final Map<TenantKey, Set<String>> keysByTask = new HashMap<>();
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
    return prepareIfAbsent(tenant, null, key, tool, argsHash, owner, ttl, nowMillis);
  }

  public Prepared prepareIfAbsent(
      String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration ttl, long nowMillis) {
    LedgerRules.checkPrepare(tenant, key, tool, argsHash);
    LedgerRules.checkLease(tenant, key, owner, ttl);
    if (taskId != null) {
      LedgerRules.checkId(taskId, "taskId", LedgerRules.MAX_NAME);
    }
    StoredEntry existing = entries.get(new TenantKey(tenant, key));
    if (existing != null) {
      LedgerRules.checkSameIntent(existing.record(), tool, argsHash);
      return new Prepared(existing.record(), false, null);
    }
    StoredEntry fresh = LedgerRules.newLeasedEntry(tenant, taskId, key, tool, argsHash, owner, ttl, nowMillis);
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
        unindex(e);
        removed++;
      }
    }
    for (Iterator<TaskCheckpoint> it = tasks.values().iterator(); it.hasNext(); ) {
      TaskCheckpoint t = it.next();
      if (!t.phase().open() && t.updatedAt().toEpochMilli() < cutoffMillis) {
        persister.removeTask(t);
        it.remove();
      }
    }
    return removed;
  }

  /** Saves a task's checkpoint; returns the one it replaces, or {@code null}. */
  public TaskCheckpoint saveCheckpoint(TaskCheckpoint checkpoint) {
    LedgerRules.checkCheckpoint(checkpoint);
    persister.putTask(checkpoint);
    return tasks.put(new TenantKey(checkpoint.tenant(), checkpoint.taskId()), checkpoint);
  }

  public Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    LedgerRules.checkTenantTask(tenant, taskId);
    return Optional.ofNullable(tasks.get(new TenantKey(tenant, taskId)));
  }

  /** The latest checkpoint of every task that did not close, oldest start first. */
  public List<TaskCheckpoint> openTasks() {
    List<TaskCheckpoint> out = new ArrayList<>();
    for (TaskCheckpoint t : tasks.values()) {
      if (t.phase().open()) {
        out.add(t);
      }
    }
    out.sort(Comparator.comparing(TaskCheckpoint::startedAt).thenComparing(TaskCheckpoint::tenant).thenComparing(TaskCheckpoint::taskId));
    return out;
  }

  /** The records of one task, oldest first. */
  public List<LedgerRecord> taskRecords(String tenant, String taskId) {
    LedgerRules.checkTenantTask(tenant, taskId);
    Set<String> keys = keysByTask.get(new TenantKey(tenant, taskId));
    List<LedgerRecord> out = new ArrayList<>();
    if (keys != null) {
      for (String key : keys) {
        StoredEntry e = entries.get(new TenantKey(tenant, key));
        if (e != null) {
          out.add(e.record());
        }
      }
    }
    out.sort(Comparator.comparing(LedgerRecord::createdAt).thenComparing(LedgerRecord::key));
    return out;
  }

  /** Every task checkpoint held (for compaction). */
  public Collection<TaskCheckpoint> checkpoints() {
    return tasks.values();
  }

  /** Loads an entry read back from storage, without persisting it again. */
  public void load(StoredEntry e) {
    entries.put(new TenantKey(e.tenant(), e.key()), e);
    index(e);
  }

  /** Drops an entry whose deletion was read back from storage. */
  public void unload(String tenant, String key) {
    StoredEntry gone = entries.remove(new TenantKey(tenant, key));
    if (gone != null) {
      unindex(gone);
    }
  }

  /** Loads a task checkpoint read back from storage, without persisting it again. */
  public void loadTask(TaskCheckpoint checkpoint) {
    tasks.put(new TenantKey(checkpoint.tenant(), checkpoint.taskId()), checkpoint);
  }

  /** Drops a task checkpoint whose deletion was read back from storage. */
  public void unloadTask(String tenant, String taskId) {
    tasks.remove(new TenantKey(tenant, taskId));
  }

  private void index(StoredEntry e) {
    String taskId = e.record().taskId();
    if (taskId != null) {
      keysByTask.computeIfAbsent(new TenantKey(e.tenant(), taskId), t -> new LinkedHashSet<>(4)).add(e.key());
    }
  }

  private void unindex(StoredEntry e) {
    String taskId = e.record().taskId();
    if (taskId != null) {
      TenantKey task = new TenantKey(e.tenant(), taskId);
      Set<String> keys = keysByTask.get(task);
      if (keys != null && keys.remove(e.key()) && keys.isEmpty()) {
        keysByTask.remove(task);
      }
    }
  }

  public Collection<StoredEntry> entries() {
    return entries.values();
  }

  public int size() {
    return entries.size();
  }

  private void store(StoredEntry e) {
    persister.put(e);
    if (entries.put(new TenantKey(e.tenant(), e.key()), e) == null) {
      index(e);
    }
  }
}
