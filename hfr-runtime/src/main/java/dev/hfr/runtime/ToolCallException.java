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
    this(outcome, cause, true);
  }

  /**
   * @param stackTrace whether the JVM records where this exception was created; the engine passes {@code
   *     false} unless asked ({@code Hfr.Builder.stackTraces}), since filling in a stack trace costs more than
   *     the rest of a failed call and the cause keeps its own
   */
  public ToolCallException(ToolOutcome outcome, Throwable cause, boolean stackTrace) {
    super(message(outcome), cause, true, stackTrace);
    this.outcome = outcome;
  }

  private static String message(ToolOutcome outcome) {
    Objects.requireNonNull(outcome, "outcome");
    return outcome.tool() + " " + outcome.status().name().toLowerCase(java.util.Locale.ROOT)
        + (outcome.errorType() != null ? " (" + outcome.errorType() + ")" : "") + ": " + outcome.reason();
  }

  /** The structured outcome of the call. */
  public ToolOutcome outcome() {
    return outcome;
  }
}
