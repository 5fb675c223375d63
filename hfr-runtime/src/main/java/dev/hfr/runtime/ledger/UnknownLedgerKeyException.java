package dev.hfr.runtime.ledger;

/** An operation on a key that has no record in the tenant: prepare it first (or it expired). */
public class UnknownLedgerKeyException extends IllegalLedgerTransitionException {

  private static final long serialVersionUID = 1L;

  public UnknownLedgerKeyException(String message) {
    super(message);
  }
}
