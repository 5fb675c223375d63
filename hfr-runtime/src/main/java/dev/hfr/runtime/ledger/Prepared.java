package dev.hfr.runtime.ledger;

import java.util.Objects;

/**
 * What {@link IdempotencyLedger#prepareIfAbsent} found or made: the one atomic step that decides who owns
 * a write.
 *
 * @param record the key's record: the new PREPARED one, or the one another caller (or an earlier run)
 *     left there, unchanged
 * @param created whether this call created the record; only then may the caller send the write at once
 * @param lease the creator's lease on the new record, granted in the same step; {@code null} when the
 *     record already existed (the caller must then lease it like any other recoverer)
 */
public record Prepared(LedgerRecord record, boolean created, Lease lease) {

  public Prepared {
    Objects.requireNonNull(record, "record");
    if (created != (lease != null)) {
      throw new IllegalArgumentException("a created record comes with its creator's lease, an existing one without");
    }
  }
}
