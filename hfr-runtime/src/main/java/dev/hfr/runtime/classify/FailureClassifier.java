package dev.hfr.runtime.classify;

/**
 * Maps an observation of a failed (or suspicious) call to an F2D-9 class. Implementations never throw:
 * whatever they cannot read they answer with {@code UNCLASSIFIED} and a low confidence, so the action
 * selector falls back to the conservative action for the call's risk.
 */
@FunctionalInterface
public interface FailureClassifier {

  Classification classify(Observation observation);
}
