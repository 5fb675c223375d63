package dev.hfr.runtime.model;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolOutcome;
import java.util.List;
import java.util.Objects;

/**
 * Thrown (or, when streaming, handed to the caller's error callback) by a model ladder when no acceptable answer
 * could be had safely: every allowed rung failed, or the failure is one that retrying or degrading cannot fix (T7,
 * T6 that compression cannot shorten), or must not (T8, {@link ModelRefusalException}). {@link #status()} says
 * whether the call was handed to a human ({@code ESCALATED}) or simply failed.
 */
public class ModelCallFailedException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final ToolOutcome.Status status;
  private final Fault fault;
  private final transient List<ModelDecision> decisions;

  public ModelCallFailedException(ToolOutcome.Status status, Fault fault, String message, List<ModelDecision> decisions,
      Throwable cause) {
    super(message, cause);
    this.status = Objects.requireNonNull(status, "status");
    this.fault = Objects.requireNonNull(fault, "fault");
    this.decisions = List.copyOf(decisions);
  }

  /** {@code FAILED} or {@code ESCALATED}. */
  public ToolOutcome.Status status() {
    return status;
  }

  /** The F2D-9 class of the failure that ended the call. */
  public Fault fault() {
    return fault;
  }

  /** Every decision taken during the call, in order. */
  public List<ModelDecision> decisions() {
    return decisions;
  }
}
