package dev.hfr.runtime.ledger;

import dev.hfr.runtime.ledger.internal.LedgerTable;
import dev.hfr.runtime.ledger.internal.RetentionSweep;
import dev.hfr.runtime.ledger.internal.StoredEntry;
import dev.hfr.runtime.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A ledger in the heap: exact Table 6 semantics, nothing survives the process. For tests and for the
 * benchmark on virtual time; production uses {@link EmbeddedFileLedger} or {@link PostgresLedger}.
 * Thread-safe (one lock; operations take well under a microsecond).
 */
public final class InMemoryLedger implements IdempotencyLedger {

  private static final LedgerTable.Persister NOTHING_TO_PERSIST = new LedgerTable.Persister() {
    @Override
    public void put(StoredEntry entry) {}

    @Override
    public void remove(StoredEntry entry) {}
  };

  private final Clock clock;
  private final LedgerTable table = new LedgerTable(NOTHING_TO_PERSIST);
  private final RetentionSweep sweep;
  private boolean closed;

  /** An empty ledger on the system clock with the default 24 h retention. */
  public InMemoryLedger() {
    this(LedgerOptions.defaults());
  }

  /** An empty ledger on {@code clock} (such as a {@code VirtualTime}) with the default retention. */
  public InMemoryLedger(Clock clock) {
    this(LedgerOptions.defaults().withClock(clock));
  }

  public InMemoryLedger(LedgerOptions options) {
    Objects.requireNonNull(options, "options");
    this.clock = options.clock();
    this.sweep = new RetentionSweep(options.retention(), clock.epochMillis());
  }

  @Override
  public synchronized LedgerRecord prepare(String tenant, String key, String tool, String argsHash) {
    checkOpen();
    long now = clock.epochMillis();
    long cutoff = sweep.dueCutoff(now);
    if (cutoff >= 0) {
      table.expire(cutoff);
    }
    return table.prepare(tenant, key, tool, argsHash, now);
  }

  @Override
  public synchronized Prepared prepareIfAbsent(
      String tenant, String taskId, String key, String tool, String argsHash, String owner, Duration leaseTtl) {
    checkOpen();
    long now = clock.epochMillis();
    long cutoff = sweep.dueCutoff(now);
    if (cutoff >= 0) {
      table.expire(cutoff);
    }
    return table.prepareIfAbsent(tenant, taskId, key, tool, argsHash, owner, leaseTtl, now);
  }

  @Override
  public synchronized Optional<TaskCheckpoint> saveCheckpoint(TaskCheckpoint checkpoint) {
    Objects.requireNonNull(checkpoint, "checkpoint");
    checkOpen();
    return Optional.ofNullable(table.saveCheckpoint(checkpoint));
  }

  @Override
  public synchronized Optional<TaskCheckpoint> findCheckpoint(String tenant, String taskId) {
    checkOpen();
    return table.findCheckpoint(tenant, taskId);
  }

  @Override
  public synchronized List<TaskCheckpoint> openTasks() {
    checkOpen();
    return table.openTasks();
  }

  @Override
  public synchronized List<LedgerRecord> taskRecords(String tenant, String taskId) {
    checkOpen();
    return table.taskRecords(tenant, taskId);
  }

  @Override
  public synchronized LedgerRecord transition(
      String tenant, String key, LedgerState expected, LedgerState target, String resultHash, long fencingToken) {
    checkOpen();
    return table.transition(tenant, key, expected, target, resultHash, fencingToken, clock.epochMillis());
  }

  @Override
  public synchronized Optional<LedgerRecord> find(String tenant, String key) {
    checkOpen();
    return table.find(tenant, key);
  }

  @Override
  public synchronized Optional<Lease> acquireLease(String tenant, String key, String owner, Duration ttl) {
    checkOpen();
    return table.acquireLease(tenant, key, owner, ttl, clock.epochMillis());
  }

  @Override
  public synchronized Optional<Lease> renewLease(Lease lease, Duration ttl) {
    Objects.requireNonNull(lease, "lease");
    checkOpen();
    return table.renewLease(lease, ttl, clock.epochMillis());
  }

  @Override
  public synchronized Optional<Lease> currentLease(String tenant, String key) {
    checkOpen();
    return table.currentLease(tenant, key, clock.epochMillis());
  }

  @Override
  public synchronized void releaseLease(Lease lease) {
    Objects.requireNonNull(lease, "lease");
    checkOpen();
    table.releaseLease(lease);
  }

  @Override
  public synchronized List<LedgerRecord> pending() {
    checkOpen();
    return table.pending();
  }

  @Override
  public synchronized int expire(Instant cutoff) {
    Objects.requireNonNull(cutoff, "cutoff");
    checkOpen();
    return table.expire(cutoff.toEpochMilli());
  }

  /** Number of records held (all tenants). */
  public synchronized int size() {
    return table.size();
  }

  @Override
  public synchronized void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw new IllegalStateException("the ledger is closed");
    }
  }
}
