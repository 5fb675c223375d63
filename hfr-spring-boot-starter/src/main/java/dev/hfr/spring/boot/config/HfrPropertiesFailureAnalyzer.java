package dev.hfr.spring.boot.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns refused {@code hfr.*} properties into Spring Boot's start-up report: each property, where, and the fix. */
class HfrPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<HfrPropertiesException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, HfrPropertiesException cause) {
    return new FailureAnalysis(cause.getMessage(),
        "Fix the hfr.* properties listed above; docs/CONFIG.md lists every key, its range and its default"
            + " (in Spring, keys are written in kebab case: max_attempts_per_step is hfr.retry.max-attempts-per-step).", cause);
  }
}
