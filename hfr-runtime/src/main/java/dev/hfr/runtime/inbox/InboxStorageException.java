package dev.hfr.runtime.inbox;

/** The inbox's store failed (its file cannot be opened, its database does not answer); the message names it. */
public final class InboxStorageException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public InboxStorageException(String message, Throwable cause) {
    super(message, cause);
  }
}
