package dev.hfr.runtime;

import java.util.Objects;

/**
 * Thrown by a recovering proxy when a tool call ends without an accepted result. The
 * {@link #outcome()} says why, in the article's structured form; the cause is the last failure seen.
 */
public class ToolCallException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final transient ToolOutcome outcome;

  public ToolCallException(ToolOutcome outcome, Throwable cause) {
    super(outcome.tool() + " " + outcome.status().name().toLowerCase(java.util.Locale.ROOT)
        + (outcome.errorType() != null ? " (" + outcome.errorType() + ")" : "") + ": " + outcome.reason(), cause);
    this.outcome = Objects.requireNonNull(outcome, "outcome");
  }

  /** The structured outcome of the call. */
  public ToolOutcome outcome() {
    return outcome;
  }
}
