package dev.hfr.runtime.model;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolOutcome;
import java.util.List;

/**
 * A streamed answer failed after part of it had already reached the caller. A streaming model ladder never retries
 * or degrades such a call by itself: a second stream would repeat or contradict what the caller already showed. The
 * caller decides — discard the partial answer and ask again, or keep it. {@link #deliveredPartials()} says how much
 * had been passed on.
 */
public class ModelStreamInterruptedException extends ModelCallFailedException {

  private static final long serialVersionUID = 1L;

  private final int deliveredPartials;

  public ModelStreamInterruptedException(Fault fault, String message, int deliveredPartials, List<ModelDecision> decisions,
      Throwable cause) {
    super(ToolOutcome.Status.FAILED, fault, message, decisions, cause);
    this.deliveredPartials = deliveredPartials;
  }

  /** How many partial responses (tokens, thinking or tool-call fragments) the caller had received. */
  public int deliveredPartials() {
    return deliveredPartials;
  }
}
