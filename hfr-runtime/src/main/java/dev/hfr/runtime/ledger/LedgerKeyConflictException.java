package dev.hfr.runtime.ledger;

/**
 * A {@code prepare} whose key already names a record for another tool or other arguments. Keys derive
 * from the tool and the arguments, so this means a key was built by hand or reused by mistake; the
 * existing record is left unchanged.
 */
public class LedgerKeyConflictException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public LedgerKeyConflictException(String message) {
    super(message);
  }
}
