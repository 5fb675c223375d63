package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.Lease;
import dev.hfr.runtime.ledger.Prepared;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/** A ledger that hands every call to another; a test overrides what it breaks. */
class ForwardingLedger implements IdempotencyLedger {

  private final IdempotencyLedger delegate;

  ForwardingLedger(IdempotencyLedger delegate) {
    this.delegate = delegate;
  }

  @Override
  public LedgerRecord prepare(String tenant, String key, String tool, String argsHash) {
    return delegate.prepare(tenant, key, tool, argsHash);
  }

  @Override
  public Prepared prepareIfAbsent(
      String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration leaseTtl) {
    return delegate.prepareIfAbsent(tenant, taskId, key, tool, argsHash, owner, leaseTtl);
  }

  @Override
  public Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint) {
    return delegate.saveCheckpoint(checkpoint);
  }

  @Override
  public Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    return delegate.findCheckpoint(tenant, taskId);
  }

  @Override
  public List<TaskCheckpoint> openTasks() {
    return delegate.openTasks();
  }

  @Override
  public List<LedgerRecord> taskRecords(String tenant, String taskId) {
    return delegate.taskRecords(tenant, taskId);
  }

  @Override
  public List<LedgerRecord> unfinishedTaskRecords(String tenant, String taskId) {
    return delegate.unfinishedTaskRecords(tenant, taskId);
  }

  @Override
  public LedgerRecord transition(String tenant, String key, LedgerState expected, LedgerState target, String resultHash,
      long fencingToken) {
    return delegate.transition(tenant, key, expected, target, resultHash, fencingToken);
  }

  @Override
  public Optional<LedgerRecord> find(String tenant, String key) {
    return delegate.find(tenant, key);
  }

  @Override
  public Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl) {
    return delegate.acquireLease(tenant, key, owner, ttl);
  }

  @Override
  public Optional<Lease> renewLease(Lease lease, Duration ttl) {
    return delegate.renewLease(lease, ttl);
  }

  @Override
  public Optional<Lease> currentLease(String tenant, String key) {
    return delegate.currentLease(tenant, key);
  }

  @Override
  public void releaseLease(Lease lease) {
    delegate.releaseLease(lease);
  }

  @Override
  public List<LedgerRecord> pending() {
    return delegate.pending();
  }

  @Override
  public int expire(Instant cutoff) {
    return delegate.expire(cutoff);
  }

  @Override
  public void close() {
    delegate.close();
  }
}
