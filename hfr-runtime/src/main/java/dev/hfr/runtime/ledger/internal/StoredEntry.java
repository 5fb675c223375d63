package dev.hfr.runtime.ledger.internal;

import dev.hfr.runtime.ledger.LedgerRecord;
import java.util.Objects;

/**
 * A ledger record as a backend stores it: the record plus its current lease holder.
 *
 * @param leaseOwner the holder of the latest lease, or {@code null} when none was granted or it was released
 * @param leaseExpiresAtMillis when that lease ends (epoch millis); meaningless without an owner
 */
public record StoredEntry(LedgerRecord record, String leaseOwner, long leaseExpiresAtMillis) {

  public StoredEntry {
    Objects.requireNonNull(record, "record");
  }

  /** Whether another holder's lease keeps others out at {@code nowMillis}. */
  public boolean leaseLiveAt(long nowMillis) {
    return leaseOwner != null && nowMillis < leaseExpiresAtMillis;
  }

  public String tenant() {
    return record.tenant();
  }

  public String key() {
    return record.key();
  }
}
