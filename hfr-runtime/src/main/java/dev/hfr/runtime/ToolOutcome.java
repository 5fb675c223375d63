package dev.hfr.runtime;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import java.util.List;
import java.util.Objects;

/**
 * The structured end of every tool call — the article's tool execution contract: status, error type,
 * retryable, side effect, artifact references, verification required — plus what HFR did to get there.
 *
 * @param tool the tool's name
 * @param status how the call ended
 * @param errorType the F2D-9 class of the last failure, or {@code null} on a clean success
 * @param retryable whether a later, separate call could succeed where this one failed
 * @param sideEffect whether the call may have changed the outside world
 * @param artifactRefs references to what the call produced (ledger key, result hash)
 * @param verificationRequired whether the result still needs verification by the caller
 * @param degraded whether the result came from a degradation rung
 * @param degradeLevel the rung's level, {@code L0} when not degraded
 * @param attempts physical attempts made, all rungs included
 * @param reason a short machine-readable reason ({@code timeout_unknown_state}, {@code budget_exhausted}, ...)
 * @param personAnswer what a person answered in the inbox that decided this call (a denial's reason, "a person
 *     closed it"), for the model; {@code null} when no person decided it
 */
public record ToolOutcome(
    String tool,
    Status status,
    Fault errorType,
    boolean retryable,
    boolean sideEffect,
    List<String> artifactRefs,
    boolean verificationRequired,
    boolean degraded,
    DegradeLevel degradeLevel,
    int attempts,
    String reason,
    String personAnswer) {

  /** An outcome no person decided. */
  public ToolOutcome(String tool, Status status, Fault errorType, boolean retryable, boolean sideEffect,
      List<String> artifactRefs, boolean verificationRequired, boolean degraded, DegradeLevel degradeLevel, int attempts,
      String reason) {
    this(tool, status, errorType, retryable, sideEffect, artifactRefs, verificationRequired, degraded, degradeLevel,
        attempts, reason, null);
  }

  /** How a tool call ended. */
  public enum Status {
    /** Accepted result. */
    SUCCESS,
    /** Stopped with a structured failure. */
    FAILED,
    /** Handed to a human or upstream system with an evidence bundle. */
    ESCALATED
  }

  public ToolOutcome {
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(status, "status");
    artifactRefs = List.copyOf(artifactRefs);
    Objects.requireNonNull(degradeLevel, "degradeLevel");
  }

  /**
   * Whether the result is a replay: the call repeated a write its task had already committed (the model called
   * the tool again with the same arguments), and was answered with that write's result without sending
   * anything ({@code reason} {@code replayed_from_ledger}).
   */
  public boolean replayed() {
    return "replayed_from_ledger".equals(reason);
  }
}
