package dev.hfr.runtime;

import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.LedgerState;

/**
 * A request to compensate a write that did not end with the write COMPENSATED. The message names the
 * tool, the ledger key and the record's state; {@link #reason()} says why, from a closed set:
 *
 * <ul>
 *   <li>{@link Reason#NOT_COMPENSABLE}: refused before anything ran — the tool declares no compensate
 *       method, the key is not a committed write (no record, another tool's, PREPARED, UNKNOWN, FAILED,
 *       already COMPENSATED);
 *   <li>{@link Reason#KEY_IN_USE}: another recoverer holds the lease on the write or its compensation;
 *   <li>{@link Reason#COMPENSATION_FAILED}: the compensate method was refused with proof that nothing was
 *       undone (the write stays COMMITTED; asking again runs it again);
 *   <li>{@link Reason#COMPENSATION_UNKNOWN}: the compensation's own outcome is unknown — it is never re-run
 *       automatically, and was escalated.
 * </ul>
 */
public final class CompensationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final String tool;
  private final String ledgerKey;
  private final transient LedgerState ledgerState;
  private final transient Reason reason;

  public CompensationException(String message, String tool, String ledgerKey, LedgerState ledgerState, Reason reason,
      Throwable cause) {
    super(message, cause);
    this.tool = tool;
    this.ledgerKey = ledgerKey;
    this.ledgerState = ledgerState;
    this.reason = reason;
  }

  /** The tool whose write was to be compensated. */
  public String tool() {
    return tool;
  }

  /** The write's idempotency key. */
  public String ledgerKey() {
    return ledgerKey;
  }

  /** The write's ledger state now, or {@code null} when the ledger holds no such record. */
  public LedgerState ledgerState() {
    return ledgerState;
  }

  /** Why the write was not compensated. */
  public Reason reason() {
    return reason;
  }

  /** Whether asking again may succeed (a refused compensation, or a key another recoverer held). */
  public boolean retryable() {
    return reason == Reason.COMPENSATION_FAILED || reason == Reason.KEY_IN_USE;
  }
}
