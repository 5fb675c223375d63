package dev.hfr.runtime.ledger;

/**
 * Tool arguments that have no canonical form (a cycle, an object with no readable content, a type that
 * cannot be read), so no idempotency key can be derived from them. Names the path of the bad value,
 * such as {@code $[0].items[2]}.
 */
public class CanonicalFormException extends IllegalArgumentException {

  private static final long serialVersionUID = 1L;

  private final String path;

  public CanonicalFormException(String path, String message) {
    super(message);
    this.path = path;
  }

  public CanonicalFormException(String path, String message, Throwable cause) {
    super(message, cause);
    this.path = path;
  }

  /** Where the bad value is, from the root {@code $}: {@code $[1].lines[0].price}. */
  public String path() {
    return path;
  }
}
