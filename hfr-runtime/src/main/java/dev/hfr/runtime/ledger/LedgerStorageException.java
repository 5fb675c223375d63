package dev.hfr.runtime.ledger;

/**
 * The ledger's storage failed (an I/O or database error). The operation was not acknowledged: callers
 * treat the write's intent as not recorded and do not attempt the tool call (fail closed for writes).
 */
public class LedgerStorageException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public LedgerStorageException(String message, Throwable cause) {
    super(message, cause);
  }

  public LedgerStorageException(String message) {
    super(message);
  }
}
