package dev.hfr.runtime.ledger;

/**
 * Another process (or another ledger in this JVM) has the embedded ledger's directory open. One process
 * owns an embedded ledger at a time; several JVMs that must share one use {@link PostgresLedger}.
 */
public class LedgerLockedException extends LedgerStorageException {

  private static final long serialVersionUID = 1L;

  public LedgerLockedException(String message) {
    super(message);
  }

  public LedgerLockedException(String message, Throwable cause) {
    super(message, cause);
  }
}
