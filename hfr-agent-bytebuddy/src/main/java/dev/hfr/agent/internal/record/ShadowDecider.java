package dev.hfr.agent.internal.record;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.Observation;

/**
 * Classifies an observed attempt with the runtime's classifier and looks up the action in the
 * runtime's {@link ActionTable}: the same answer an annotated tool of that risk would get.
 *
 * <p>The classifier is created by the first attempt that is not a plain success: a JVM whose requests
 * succeed never loads it (a dozen classes of the runtime and Micrometer's binder interface, part of the
 * start-up CPU time docs/AGENT.md measures).
 */
public final class ShadowDecider {

  private final Criticality.Level criticality;
  private DefaultFailureClassifier classifier;

  public ShadowDecider(Criticality.Level criticality) {
    this.criticality = criticality;
  }

  /**
   * Whether an attempt plainly succeeded: a 1xx-3xx response and nothing thrown. Such attempts are not
   * given to the classifier (there is nothing to classify), which keeps the common path cheap.
   */
  public static boolean plainSuccess(int status, Throwable thrown) {
    return thrown == null && status >= 100 && status < 400;
  }

  /** The decision for a plainly successful attempt. */
  public Decision success(Risk risk) {
    return new Decision(Classification.success(), risk, null);
  }

  /** The decision for one attempt of a request of {@code risk}. */
  public Decision decide(Observation observation, Risk risk) {
    Classification c = classifier().classify(observation);
    if (c.isSuccess()) {
      return new Decision(c, risk, null);
    }
    Action action = ActionTable.defaultAction(c.fault(), risk, criticality);
    return new Decision(c, risk, action);
  }

  private synchronized DefaultFailureClassifier classifier() {
    if (classifier == null) {
      classifier = new DefaultFailureClassifier();
    }
    return classifier;
  }
}
