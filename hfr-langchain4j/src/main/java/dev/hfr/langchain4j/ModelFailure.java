package dev.hfr.langchain4j;

import dev.hfr.annotations.Fault;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.Observation;
import java.util.Objects;

/**
 * A classified failure of one model call.
 *
 * @param classification the F2D-9 class, confidence, Retry-After and the rule that decided
 * @param quotaExhausted whether the failure is an exhausted quota of this provider's account (waiting
 *     cannot help, unlike a momentary 429; another provider may)
 * @param observation what was seen (status, headers, body, finish reason), for decisions and evidence
 */
public record ModelFailure(Classification classification, boolean quotaExhausted, Observation observation) {

  public ModelFailure {
    Objects.requireNonNull(classification, "classification");
    Objects.requireNonNull(observation, "observation");
  }

  public Fault fault() {
    return classification.fault();
  }
}
