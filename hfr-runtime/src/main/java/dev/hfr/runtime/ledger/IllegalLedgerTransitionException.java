package dev.hfr.runtime.ledger;

/** A ledger transition that Table 6 does not allow, or whose expected state did not match. */
public class IllegalLedgerTransitionException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public IllegalLedgerTransitionException(String message) {
    super(message);
  }
}
