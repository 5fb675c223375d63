package dev.hfr.runtime;

import dev.hfr.runtime.ledger.LedgerState;
import java.util.Objects;

/**
 * A write a task committed (its ledger record reached COMMITTED or RECONCILED_COMMITTED during the task),
 * as {@link TaskScope#committedWrites()} lists it.
 *
 * @param tool the tool's name ({@code SimpleClass.method})
 * @param step the call's logical step within the task
 * @param ledgerKey the write's idempotency key: what {@link TaskScope#compensate(String)} takes
 * @param state the record's state in the ledger now ({@code COMPENSATED} once undone)
 * @param compensable whether the tool declares a compensate method
 */
public record CommittedWrite(String tool, long step, String ledgerKey, LedgerState state, boolean compensable) {

  public CommittedWrite {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(ledgerKey, "ledgerKey");
    Objects.requireNonNull(state, "state");
  }
}
