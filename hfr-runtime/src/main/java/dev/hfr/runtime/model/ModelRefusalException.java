package dev.hfr.runtime.model;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolOutcome;
import java.util.List;

/**
 * The model's provider refused on policy or safety grounds (T8). Always escalated, never retried and never degraded
 * around: a weaker model that would comply is a bypass, not a degradation (paper §4.4).
 */
public class ModelRefusalException extends ModelCallFailedException {

  private static final long serialVersionUID = 1L;

  public ModelRefusalException(String message, List<ModelDecision> decisions, Throwable cause) {
    super(ToolOutcome.Status.ESCALATED, Fault.T8, message, decisions, cause);
  }
}
