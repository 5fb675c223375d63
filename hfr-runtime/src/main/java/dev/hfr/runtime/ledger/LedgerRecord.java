package dev.hfr.runtime.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * One ledger record with its evidence. Arguments are stored as a hash, never raw.
 *
 * @param tenant the namespace; no operation of one tenant reads or changes another's records
 * @param key the idempotency key (hex SHA-256)
 * @param tool the tool's name
 * @param argsHash hex SHA-256 of the canonical arguments
 * @param state the current state
 * @param attempts attempts made under this key
 * @param resultHash hex SHA-256 of the committed result, or {@code null}
 * @param fencingToken the token of the last lease granted on this key (0 when never leased)
 * @param createdAt when the intent was first recorded
 * @param updatedAt when the state last changed
 * @param taskId the task whose write this is, or {@code null} for a record written without one (by an HFR
 *     before task ids were recorded, or straight through the ledger API); crash resume lists a task's
 *     unfinished writes by it
 */
public record LedgerRecord(
    String tenant,
    String key,
    String tool,
    String argsHash,
    LedgerState state,
    int attempts,
    String resultHash,
    long fencingToken,
    Instant createdAt,
    Instant updatedAt,
    String taskId) {

  /** A record of no task (see {@link #taskId}). */
  public LedgerRecord(
      String tenant, String key, String tool, String argsHash, LedgerState state, int attempts, String resultHash,
      long fencingToken, Instant createdAt, Instant updatedAt) {
    this(tenant, key, tool, argsHash, state, attempts, resultHash, fencingToken, createdAt, updatedAt, null);
  }

  public LedgerRecord {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(argsHash, "argsHash");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }
}
