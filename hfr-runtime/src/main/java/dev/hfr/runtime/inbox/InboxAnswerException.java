package dev.hfr.runtime.inbox;

/**
 * An answer the inbox refused, with why and what to do instead: the item is unknown, already answered or expired,
 * the answer does not fit the item, or the write is being worked on right now.
 */
public final class InboxAnswerException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** Why, as a stable code for HTTP clients: {@code not_found}, {@code conflict} or {@code invalid}. */
  private final String code;

  public InboxAnswerException(String code, String message) {
    super(message);
    this.code = code;
  }

  /** {@code not_found}, {@code conflict} (answered, expired, busy) or {@code invalid} (the answer does not fit). */
  public String code() {
    return code;
  }
}
