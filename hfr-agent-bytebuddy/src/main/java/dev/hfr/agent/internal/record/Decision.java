package dev.hfr.agent.internal.record;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.classify.Classification;

/**
 * What HFR makes of one attempt: the classifier's answer and, for a failure, the action it would take.
 *
 * @param classification the classifier's answer
 * @param risk the request's inferred risk
 * @param action the default action for the fault, risk and criticality; {@code null} after a success
 */
public record Decision(Classification classification, Risk risk, Action action) {

  /** Whether the attempt succeeded. */
  public boolean success() {
    return action == null;
  }

  /** The {@code class} tag: the F2D-9 class, or {@code none} after a success. */
  public String classTag() {
    return success() ? "none" : classification.fault().name();
  }

  /** The {@code action} tag: the action in lower case, or {@code none} after a success. */
  public String actionTag() {
    return success() ? "none" : action.tag();
  }

  /** The fault, or {@code null} after a success. */
  public Fault fault() {
    return success() ? null : classification.fault();
  }
}
