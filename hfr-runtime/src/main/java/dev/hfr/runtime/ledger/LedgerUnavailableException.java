package dev.hfr.runtime.ledger;

/**
 * The ledger's database cannot be reached right now (refused, timed out, shutting down), or has not answered
 * since it went away. Nothing was recorded: the engine refuses the write with the outcome {@code
 * ledger_unavailable} and never sends it unguarded. A {@link PostgresLedger} that started without its database,
 * or lost it, keeps asking in the background and serves again once it answers (creating or migrating the schema
 * first).
 */
public class LedgerUnavailableException extends LedgerStorageException {

  private static final long serialVersionUID = 1L;

  /** {@code message} says what was attempted and since when the database has not answered. */
  public LedgerUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
