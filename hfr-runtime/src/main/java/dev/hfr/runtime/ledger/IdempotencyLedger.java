package dev.hfr.runtime.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The durable record of every write's intent and outcome (paper §4.5). Each method is durable when it
 * returns: an acknowledged record survives the process being killed at any instant. (An attempt's outcome
 * may still wait for the next flush to survive a power loss or a crash of the machine or database server:
 * see {@link #transition}.) Every operation is scoped by tenant.
 *
 * <p>Implementations: the embedded file ledger (the default, no server) and the PostgreSQL ledger
 * (several JVMs sharing one). Both pass the same contract tests.
 */
public interface IdempotencyLedger extends AutoCloseable {

  /**
   * Records the intent of a write before its first attempt. If a record with this key exists, it is
   * returned unchanged (a retry, or a replay after a crash, reuses the key); otherwise a new record in
   * {@link LedgerState#PREPARED} is created.
   */
  LedgerRecord prepare(String tenant, String key, String tool, String argsHash);

  /**
   * Creates the record of a write and leases it to {@code owner} in one atomic step, unless a record with
   * this key exists, which is then returned unchanged and unleased. Of any number of callers racing on one
   * key exactly one gets {@code created == true}: the only one that may send the write without first
   * taking the existing record over ({@link #acquireLease}) and reading its state.
   *
   * @throws LedgerKeyConflictException if the existing record is of another tool or other arguments
   */
  default Prepared prepareIfAbsent(String tenant, String key, String tool, String argsHash, String owner, Duration leaseTtl) {
    return prepareIfAbsent(tenant, null, key, tool, argsHash, owner, leaseTtl);
  }

  /**
   * {@link #prepareIfAbsent(String, String, String, String, String, Duration)} for a write of task {@code
   * taskId}: a created record carries the task id ({@link LedgerRecord#taskId}), so crash resume can list
   * the task's unfinished writes ({@link #unfinishedTaskRecords}).
   *
   * @param taskId the task the write belongs to, or {@code null}
   */
  Prepared prepareIfAbsent(String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration leaseTtl);

  /**
   * Moves a record from {@code expected} to {@code target}, recording the evidence. A move to {@link
   * LedgerState#COMMITTED}, {@link LedgerState#RECONCILED_COMMITTED} or {@link LedgerState#COMPENSATED}
   * settles the write for good and also ends the key's lease, in the same step: its holder has nothing left
   * to release, and the next {@link #acquireLease} (a compensation) is granted at once. Fencing tokens are
   * unchanged by it.
   *
   * <p>A move out of {@link LedgerState#PREPARED} — an attempt's outcome — may be acknowledged before it is
   * flushed to the storage device: the embedded ledger forces it with the next batch, PostgreSQL commits it
   * asynchronously. A power loss or server crash can then take it back, and only with everything written
   * after it; the record is PREPARED again, which the engine treats as in doubt and reconciles. Every other
   * operation (a prepare, a lease grant, any other move) is durable when it returns.
   *
   * @param resultHash the committed result's hash, or {@code null}
   * @param fencingToken the caller's lease token; refused if a newer lease was granted on the key
   * @throws IllegalLedgerTransitionException if the record is not in {@code expected} or the transition
   *     is not allowed by Table 6
   * @throws StaleFencingTokenException if {@code fencingToken} is older than the key's latest lease
   */
  LedgerRecord transition(String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken);

  /** The record of {@code key} in {@code tenant}, if any. */
  Optional<LedgerRecord> find(String tenant, String key);

  /**
   * Grants the caller the right to act on {@code key} for {@code ttl}, with a fencing token greater than
   * every token granted on the key before; empty while another holder's lease is live.
   */
  Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl);

  /**
   * Extends a live holder's lease to {@code ttl} from now (a heartbeat while its call runs), keeping its
   * fencing token; empty when {@code lease} is no longer the key's current lease (released, or taken over
   * after it lapsed): the holder has lost the key.
   */
  Optional<Lease> renewLease(Lease lease, Duration ttl);

  /** The key's current lease if one is live now (holder and expiry), else empty. */
  Optional<Lease> currentLease(String tenant, String key);

  /** Releases a lease early; a stale lease is ignored. */
  void releaseLease(Lease lease);

  /** Every record (of all tenants) that crash resume must reconcile: PREPARED or UNKNOWN. */
  List<LedgerRecord> pending();

  /**
   * Saves a task's checkpoint (§5.4), replacing the one saved before for its tenant and task. A checkpoint
   * of phase {@link TaskCheckpoint.Phase#ESCALATED} is durable when this returns; a start or a close may be
   * acknowledged once written and made durable with the next durable write (a power loss that takes it back
   * loses no write: every write's record is durable, and everything written before it with it).
   *
   * @return the checkpoint it replaced, if any (a task opened again after a crash finds its earlier start)
   */
  Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint);

  /** The latest checkpoint of task {@code taskId} in {@code tenant}, if any. */
  Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId);

  /** The latest checkpoint of every task (all tenants) that did not close: started or escalated, oldest first. */
  List<TaskCheckpoint> openTasks();

  /** Every record of task {@code taskId} in {@code tenant}, oldest first. */
  List<LedgerRecord> taskRecords(String tenant, String taskId);

  /**
   * The records of task {@code taskId} in {@code tenant} whose write is still in doubt ({@link
   * LedgerState#needsReconcile()}: PREPARED or UNKNOWN), oldest first: what crash resume hands to the task's
   * next run. The default filters {@link #taskRecords}; a backend may find them more cheaply (PostgreSQL reads
   * them from its index of pending records and keeps no index of a task's records).
   */
  default List<LedgerRecord> unfinishedTaskRecords(String tenant, String taskId) {
    return taskRecords(tenant, taskId).stream().filter(r -> r.state().needsReconcile()).toList();
  }

  /**
   * Deletes records that reached a final state before {@code cutoff}, and checkpoints of tasks that closed
   * before it; returns how many records.
   */
  int expire(Instant cutoff);

  @Override
  void close();
}
