package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Prepared;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
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
 *
 * <p>A backend may keep settled records elsewhere ({@link ColdRecords}): the table then holds the unsettled
 * ones and those settled since the last move ({@link #settledToMove}), reads a key it does not hold from the
 * cold store, and holds it again once it changes.
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

  /**
   * Where settled records and closed tasks live once moved out of the table. A record in the table is newer
   * than its cold copy, if any.
   */
  public interface ColdRecords {
    /** Nothing is kept outside the table. */
    ColdRecords NONE = new ColdRecords() {
      @Override
      public StoredEntry find(String tenant, String key) {
        return null;
      }

      @Override
      public List<StoredEntry> taskEntries(String tenant, String taskId) {
        return List.of();
      }

      @Override
      public TaskCheckpoint findTask(String tenant, String taskId) {
        return null;
      }
    };

    StoredEntry find(String tenant, String key);

    List<StoredEntry> taskEntries(String tenant, String taskId);

    TaskCheckpoint findTask(String tenant, String taskId);
  }

  private record TenantKey(String tenant, String key) {}

  private final Map<TenantKey, StoredEntry> entries = new HashMap<>();
  /** The latest checkpoint per (tenant, task id), in the order tasks were first checkpointed. */
  private final Map<TenantKey, TaskCheckpoint> tasks = new LinkedHashMap<>();
  /** The keys of each task's records, in creation order: a task's unfinished writes without a full scan. */
  private final Map<TenantKey, Set<String>> keysByTask = new HashMap<>();
  /** Keys whose record settled (or task closed) in the table since the last move, oldest first; may hold stale keys. */
  private final ArrayDeque<TenantKey> settledOrder = new ArrayDeque<>();
  private final ArrayDeque<TenantKey> closedOrder = new ArrayDeque<>();
  private Persister persister;
  private final ColdRecords cold;

  public LedgerTable(Persister persister) {
    this(persister, ColdRecords.NONE);
  }

  public LedgerTable(Persister persister, ColdRecords cold) {
    this.persister = persister;
    this.cold = cold;
  }

  /**
   * Persists every change from now on with {@code persister}: a table first filled by replaying a journal
   * (whose writer exists only once the journal is read) is then written through.
   */
  public void persistWith(Persister persister) {
    this.persister = persister;
  }

  /** A cold read made before the caller took the backend's lock, valid while no record moved since ({@link #moves}). */
  private String knownTenant;
  private String knownKey;
  private StoredEntry knownCold;
  private volatile long moves; // written under the backend's lock only; read without it to date a filter's answer

  /** The entry of (tenant, key): the table's, else the cold store's, else null. */
  private StoredEntry get(String tenant, String key) {
    StoredEntry e = entries.get(new TenantKey(tenant, key));
    if (e != null) {
      return e;
    }
    if (knownKey != null && knownKey.equals(key) && knownTenant.equals(tenant)) {
      return knownCold;
    }
    return cold.find(tenant, key);
  }

  /** Whether the table holds (tenant, key) itself, so a cold read of it would be pointless. */
  public boolean holds(String tenant, String key) {
    return entries.containsKey(new TenantKey(tenant, key));
  }

  /**
   * How many moves to the cold store dropped records from the table so far: a cold read made before a move may be
   * stale. Readable without the backend's lock (volatile): what the mover wrote before counting is seen by who reads it.
   */
  public long moves() {
    return moves;
  }

  /**
   * Runs {@code op} knowing that the cold store held {@code coldEntry} (or nothing) for (tenant, key) when it was
   * read, at {@link #moves()} {@code movesThen}: a backend reads the cold store before taking its lock, so that
   * other keys' calls do not wait for the read. If a move happened since, the read is ignored and made again.
   */
  public <T> T withColdRead(String tenant, String key, StoredEntry coldEntry, long movesThen, java.util.function.Supplier<T> op) {
    if (movesThen != moves) {
      return op.get();
    }
    knownTenant = tenant;
    knownKey = key;
    knownCold = coldEntry;
    try {
      return op.get();
    } finally {
      knownTenant = null;
      knownKey = null;
      knownCold = null;
    }
  }

  public LedgerRecord prepare(String tenant, String key, String tool, String argsHash, long nowMillis) {
    LedgerRules.checkPrepare(tenant, key, tool, argsHash);
    StoredEntry existing = get(tenant, key);
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
    StoredEntry existing = get(tenant, key);
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
    StoredEntry next = LedgerRules.applyRenew(get(lease.tenant(), lease.key()), lease, ttl, nowMillis);
    if (next == null) {
      return Optional.empty();
    }
    persister.putLeaseHolder(next);
    hold(next);
    return Optional.of(LedgerRules.leaseOf(next));
  }

  public Optional<Lease> currentLease(String tenant, String key, long nowMillis) {
    LedgerRules.checkTenantKey(tenant, key);
    return Optional.ofNullable(LedgerRules.liveLease(get(tenant, key), nowMillis));
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
        get(tenant, key), tenant, key, expected, target, resultHash, fencingToken, nowMillis);
    if (expected == LedgerState.PREPARED) {
      persister.putOutcome(next);
      hold(next);
    } else {
      store(next);
    }
    return next.record();
  }

  public Optional<LedgerRecord> find(String tenant, String key) {
    LedgerRules.checkTenantKey(tenant, key);
    StoredEntry e = get(tenant, key);
    return e == null ? Optional.empty() : Optional.of(e.record());
  }

  public Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl, long nowMillis) {
    LedgerRules.checkLease(tenant, key, owner, ttl);
    StoredEntry next = LedgerRules.applyLease(get(tenant, key), tenant, key, owner, ttl, nowMillis);
    if (next == null) {
      return Optional.empty();
    }
    store(next);
    return Optional.of(LedgerRules.leaseOf(next));
  }

  public void releaseLease(Lease lease) {
    StoredEntry next = LedgerRules.applyRelease(get(lease.tenant(), lease.key()), lease);
    if (next != null) {
      persister.putLeaseHolder(next);
      hold(next);
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
    return expireEntries(cutoffMillis).size();
  }

  /**
   * Deletes the table's settled records last changed before {@code cutoffMillis}, and its closed tasks'
   * checkpoints; returns the records deleted (a cold store deletes its own).
   */
  public List<StoredEntry> expireEntries(long cutoffMillis) {
    List<StoredEntry> removed = new ArrayList<>();
    for (Iterator<StoredEntry> it = entries.values().iterator(); it.hasNext(); ) {
      StoredEntry e = it.next();
      if (LedgerRules.expiredBy(e, cutoffMillis)) {
        persister.remove(e);
        it.remove();
        unindex(e);
        removed.add(e);
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

  /**
   * Up to {@code max} settled records the table holds that may move to the cold store now: settled, and no
   * live lease at {@code nowMillis} (a FAILED write's holder may still prepare it again; it is looked at
   * again on the next move). After they are stored there, call {@link #forgetMoved}.
   */
  public List<StoredEntry> settledToMove(int max, long nowMillis) {
    List<StoredEntry> out = new ArrayList<>();
    Set<TenantKey> taken = new HashSet<>();
    int looked = settledOrder.size();
    while (out.size() < max && looked-- > 0) {
      TenantKey k = settledOrder.poll();
      StoredEntry e = entries.get(k);
      if (e == null || e.record().state().needsReconcile() || !taken.add(k)) {
        continue; // moved, expired, unsettled again (a later settle queues it anew), or already taken
      }
      if (e.leaseLiveAt(nowMillis)) {
        settledOrder.add(k);
        continue;
      }
      out.add(e);
    }
    return out;
  }

  /** About how many settled records wait to move (a key may be counted twice). */
  public int settledWaiting() {
    return settledOrder.size();
  }

  /** Up to {@code max} closed tasks' checkpoints the table holds, to move to the cold store. */
  public List<TaskCheckpoint> closedToMove(int max) {
    List<TaskCheckpoint> out = new ArrayList<>();
    while (out.size() < max && !closedOrder.isEmpty()) {
      TaskCheckpoint t = tasks.get(closedOrder.poll());
      if (t != null && !t.phase().open()) {
        out.add(t);
      }
    }
    return out;
  }

  /** Queues again records and checkpoints whose move failed, for the next one. */
  public void moveFailed(List<StoredEntry> moved, List<TaskCheckpoint> movedTasks) {
    for (StoredEntry e : moved) {
      settledOrder.add(new TenantKey(e.tenant(), e.key()));
    }
    for (TaskCheckpoint t : movedTasks) {
      closedOrder.add(new TenantKey(t.tenant(), t.taskId()));
    }
  }

  /**
   * Drops from the table the moved records and checkpoints that did not change since {@link #settledToMove}
   * handed them out; a changed one stays (it is newer than its cold copy) and moves with a later batch.
   * Writes nothing: the cold store holds them, durably.
   */
  public void forgetMoved(List<StoredEntry> moved, List<TaskCheckpoint> movedTasks) {
    for (StoredEntry e : moved) {
      if (entries.remove(new TenantKey(e.tenant(), e.key()), e)) { // one lookup: the map is large and cold
        unindex(e);
        moves++;
      }
    }
    for (TaskCheckpoint t : movedTasks) {
      tasks.remove(new TenantKey(t.tenant(), t.taskId()), t);
    }
  }

  /** Saves a task's checkpoint; returns the one it replaces, or {@code null}. */
  public TaskCheckpoint saveCheckpoint(TaskCheckpoint checkpoint) {
    LedgerRules.checkCheckpoint(checkpoint);
    TenantKey k = new TenantKey(checkpoint.tenant(), checkpoint.taskId());
    TaskCheckpoint before = tasks.get(k);
    if (before == null) {
      before = cold.findTask(checkpoint.tenant(), checkpoint.taskId());
    }
    persister.putTask(checkpoint);
    tasks.put(k, checkpoint);
    if (!checkpoint.phase().open()) {
      closedOrder.add(k);
    }
    return before;
  }

  public Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    LedgerRules.checkTenantTask(tenant, taskId);
    TaskCheckpoint t = tasks.get(new TenantKey(tenant, taskId));
    return Optional.ofNullable(t != null ? t : cold.findTask(tenant, taskId));
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
    Map<String, LedgerRecord> byKey = new HashMap<>();
    for (StoredEntry e : cold.taskEntries(tenant, taskId)) {
      byKey.put(e.key(), e.record());
    }
    Set<String> keys = keysByTask.get(new TenantKey(tenant, taskId));
    if (keys != null) {
      for (String key : keys) {
        StoredEntry e = entries.get(new TenantKey(tenant, key));
        if (e != null) {
          byKey.put(key, e.record()); // newer than a cold copy
        }
      }
    }
    List<LedgerRecord> out = new ArrayList<>(byKey.values());
    out.sort(Comparator.comparing(LedgerRecord::createdAt).thenComparing(LedgerRecord::key));
    return out;
  }

  /** The task's records still PREPARED or UNKNOWN, oldest first: all of them are in the table, never only in the cold store. */
  public List<LedgerRecord> unfinishedTaskRecords(String tenant, String taskId) {
    LedgerRules.checkTenantTask(tenant, taskId);
    Set<String> keys = keysByTask.get(new TenantKey(tenant, taskId));
    List<LedgerRecord> out = new ArrayList<>();
    if (keys != null) {
      for (String key : keys) {
        StoredEntry e = entries.get(new TenantKey(tenant, key));
        if (e != null && e.record().state().needsReconcile()) {
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
    hold(e);
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
    TenantKey k = new TenantKey(checkpoint.tenant(), checkpoint.taskId());
    tasks.put(k, checkpoint);
    if (!checkpoint.phase().open()) {
      closedOrder.add(k);
    }
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
    hold(e);
  }

  /** Puts {@code e} in the table (already persisted), indexed by task and queued to move once settled. */
  private void hold(StoredEntry e) {
    TenantKey k = new TenantKey(e.tenant(), e.key());
    StoredEntry before = entries.put(k, e);
    if (before == null) {
      index(e);
    }
    if (!e.record().state().needsReconcile()) {
      settledOrder.add(k); // a key may stand here more than once; settledToMove hands each entry out once
    }
  }
}
