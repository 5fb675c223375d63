package dev.hfr.runtime.classify;

import dev.hfr.annotations.Fault;
import java.util.Objects;

/**
 * The classifier's answer: an F2D-9 class with a confidence in [0, 1], an optional secondary class for
 * compound faults (429 and context overflow at once), the Retry-After hint if one was given, and the
 * rule that matched (for decision events).
 *
 * @param fault the primary class
 * @param confidence how sure the matching rule is
 * @param secondary a second class observed in the same failure, or {@code null}
 * @param retryAfterMillis the server's Retry-After, or -1 when none
 * @param rule the id of the rule that decided, e.g. {@code http.429.retry-after}
 */
public record Classification(Fault fault, double confidence, Fault secondary, long retryAfterMillis, String rule) {

  public Classification {
    Objects.requireNonNull(fault, "fault");
    Objects.requireNonNull(rule, "rule");
  }

  /** Whether the call did not fail at all. */
  public static Classification success() {
    return SUCCESS;
  }

  private static final Classification SUCCESS = new Classification(Fault.UNCLASSIFIED, 1.0, null, -1, "success");

  public boolean isSuccess() {
    return this == SUCCESS;
  }
}
