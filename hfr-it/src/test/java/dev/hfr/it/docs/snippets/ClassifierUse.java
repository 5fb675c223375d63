package dev.hfr.it.docs.snippets;

import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.classify.Observation;
import dev.hfr.runtime.time.Clock;

/** The classifier as docs/CLASSIFIER.md shows it; {@code DocCodeTest} checks what the page says it returns. */
final class ClassifierUse {

  private ClassifierUse() {}

  static Classification rateLimited(Clock clock, String responseBody) {
    // tag::classify[]
    FailureClassifier classifier = new DefaultFailureClassifier(clock);   // clock: Retry-After dates
    Classification c = classifier.classify(Observation.builder()
        .httpStatus(429).header("Retry-After", "17").body(responseBody).build());
    c.fault();            // T2
    c.retryAfterMillis(); // 17000
    c.rule();             // "http.429.retry-after"
    // end::classify[]
    return c;
  }
}
