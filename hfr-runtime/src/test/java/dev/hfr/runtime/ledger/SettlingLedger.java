package dev.hfr.runtime.ledger;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * An embedded ledger whose housekeeping moves every settled record to {@code ledger.db} before each call, so
 * that each call finds its settled records in the store, not in memory: the contract run on the cold path.
 */
final class SettlingLedger implements IdempotencyLedger {

  final EmbeddedFileLedger embedded;

  SettlingLedger(EmbeddedFileLedger embedded) {
    this.embedded = embedded;
  }

  private EmbeddedFileLedger settled() {
    embedded.settleNow();
    return embedded;
  }

  @Override
  public LedgerRecord prepare(String tenant, String key, String tool, String argsHash) {
    return settled().prepare(tenant, key, tool, argsHash);
  }

  @Override
  public Prepared prepareIfAbsent(String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration leaseTtl) {
    return settled().prepareIfAbsent(tenant, taskId, key, tool, argsHash, owner, leaseTtl);
  }

  @Override
  public LedgerRecord transition(String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken) {
    return settled().transition(tenant, key, expected, target, resultHash, fencingToken);
  }

  @Override
  public Optional<LedgerRecord> find(String tenant, String key) {
    return settled().find(tenant, key);
  }

  @Override
  public Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl) {
    return settled().acquireLease(tenant, key, owner, ttl);
  }

  @Override
  public Optional<Lease> renewLease(Lease lease, Duration ttl) {
    return settled().renewLease(lease, ttl);
  }

  @Override
  public Optional<Lease> currentLease(String tenant, String key) {
    return settled().currentLease(tenant, key);
  }

  @Override
  public void releaseLease(Lease lease) {
    settled().releaseLease(lease);
  }

  @Override
  public List<LedgerRecord> pending() {
    return settled().pending();
  }

  @Override
  public Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint) {
    return settled().saveCheckpoint(checkpoint);
  }

  @Override
  public Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    return settled().findCheckpoint(tenant, taskId);
  }

  @Override
  public List<TaskCheckpoint> openTasks() {
    return settled().openTasks();
  }

  @Override
  public List<LedgerRecord> taskRecords(String tenant, String taskId) {
    return settled().taskRecords(tenant, taskId);
  }

  @Override
  public int expire(Instant cutoff) {
    return settled().expire(cutoff);
  }

  @Override
  public void close() {
    embedded.close();
  }
}
