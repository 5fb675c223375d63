package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.policy.CallPolicy;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.Observation;
import dev.hfr.runtime.degrade.ContextCompressor;
import dev.hfr.runtime.internal.retry.Backoff;
import dev.hfr.runtime.internal.retry.ExponentialBackoff;
import dev.hfr.runtime.internal.retry.FullJitterBackoff;
import dev.hfr.runtime.internal.retry.RetryGate;
import java.time.Duration;
import java.util.Objects;
import java.util.random.RandomGenerator;

/**
 * How the engine reads a failure and what answering it costs: the classifier (CLASSIFY), the retry gate
 * and backoff (CHECK), the longest Retry-After worth waiting, and the context compressor (COMPRESS).
 */
public final class FailureHandling {

  static final Classification BLIND = new Classification(Fault.UNCLASSIFIED, 0.0, null, -1, "classification.disabled");
  static final Classification CLASSIFIER_FAILED = new Classification(Fault.UNCLASSIFIED, 0.0, null, -1, "classifier.error");

  final RetryGate gate;
  final ContextCompressor compressor;
  final long maxRetryAfterMillis;
  private final FailureClassifier classifier;
  private final Backoff backoff;
  private final RandomGenerator random;

  /**
   * @param random the backoff's jitter, used under its own lock
   * @param maxRetryAfter the longest Retry-After the engine waits out
   */
  public FailureHandling(FailureClassifier classifier, RetryGate gate, Backoff backoff, RandomGenerator random,
      Duration maxRetryAfter, ContextCompressor compressor) {
    this.classifier = Objects.requireNonNull(classifier, "classifier");
    this.gate = Objects.requireNonNull(gate, "gate");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    this.random = Objects.requireNonNull(random, "random");
    this.maxRetryAfterMillis = maxRetryAfter.toMillis();
    this.compressor = Objects.requireNonNull(compressor, "compressor");
  }

  /** The class of {@code error}; a failing or silent classifier gives {@link #CLASSIFIER_FAILED}, never an exception. */
  Classification classify(Exception error, long latencyNanos) {
    Classification cls;
    try {
      // The default classifier reads the exception as it is: no observation is built for every failed attempt.
      cls = classifier instanceof DefaultFailureClassifier defaults ? defaults.classifyException(error, latencyNanos)
          : classifier.classify(Observation.builder().exception(error).latency(Duration.ofNanos(latencyNanos)).build());
    } catch (RuntimeException e) {
      // A failing classifier rule must not hide the failure: fall back to the conservative path.
      return CLASSIFIER_FAILED;
    }
    return cls == null ? CLASSIFIER_FAILED : cls;
  }

  /** The backoff before retry {@code retryNumber}, never shorter than {@code retryAfterMillis} when it is set. */
  long backoffNanos(int retryNumber, RetrySpec spec, long retryAfterMillis) {
    if (!backoff.draws(retryNumber, spec)) {
      return backoff.delayNanos(retryNumber, spec, retryAfterMillis, random); // not touched: no lock
    }
    synchronized (random) {
      return backoff.delayNanos(retryNumber, spec, retryAfterMillis, random);
    }
  }

  /** The same under a policy: {@code retry.jitter: none} takes the exponential bound itself. */
  long backoffNanos(int retryNumber, CallPolicy policy, long retryAfterMillis) {
    if (!policy.jitter() && backoff == FullJitterBackoff.INSTANCE) {
      return ExponentialBackoff.INSTANCE.delayNanos(retryNumber, policy.retry(), retryAfterMillis, random);
    }
    return backoffNanos(retryNumber, policy.retry(), retryAfterMillis);
  }
}
