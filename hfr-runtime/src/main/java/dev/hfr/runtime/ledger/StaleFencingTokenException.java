package dev.hfr.runtime.ledger;

/** A write carrying a fencing token older than the key's latest lease: another recoverer owns the key. */
public class StaleFencingTokenException extends IllegalStateException {

  private static final long serialVersionUID = 1L;

  public StaleFencingTokenException(String message) {
    super(message);
  }
}
