package dev.hfr.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.ConnectException;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import javax.net.ssl.SSLHandshakeException;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The classifier answers every observation, however malformed or hostile, and never throws. */
class ClassifierNeverThrowsPropertyTest {

  private static final List<String> FRAGMENTS = List.of("{\"error\":{\"type\":\"", "\"code\": \"", "overloaded_error",
      "insufficient_quota", "context_length_exceeded", "prompt is too long", "content_filter", "\"refusal\": ",
      "null", "\"refusal\"", "rate_limit", "unknown tool", "\"}}", "event: error\n", "Connection reset", "timed out",
      "\u2019", "\uD83D\uDE00", "\0", "REFUSED_STREAM", "Remote host terminated the handshake");

  @Property(tries = 400)
  @Label("classify never throws, always answers a class, a confidence in [0, 1] and a rule")
  void neverThrows(@ForAll("observations") Observation observation) {
    DefaultFailureClassifier classifier = new DefaultFailureClassifier();
    Classification c = classifier.classify(observation);
    assertThat(c).isNotNull();
    assertThat(c.fault()).isNotNull();
    assertThat(c.rule()).isNotBlank();
    assertThat(c.confidence()).isBetween(0.0, 1.0);
    assertThat(c.retryAfterMillis()).isBetween(-1L, RetryAfter.MAX_MILLIS);
  }

  @Property(tries = 400)
  @Label("well-behaved inputs never end in classifier.error")
  void wellBehavedInputsNeedNoErrorPath(@ForAll("wellBehavedObservations") Observation observation) {
    DefaultFailureClassifier classifier = new DefaultFailureClassifier();
    classifier.classify(observation);
    assertThat(classifier.errorCount()).as("%s", classifier.lastError()).isZero();
  }

  @Property(tries = 400)
  @Label("classifyException answers exactly what classify answers for an observation of just that exception")
  void exceptionAloneAsObservation(@ForAll("hostileExceptions") Throwable exception,
      @ForAll("attemptLatencies") long latencyNanos) {
    DefaultFailureClassifier classifier = new DefaultFailureClassifier();
    Classification expected = classifier.classify(
        Observation.builder().exception(exception).latency(Duration.ofNanos(latencyNanos)).build());
    assertThat(classifier.classifyException(exception, latencyNanos)).isEqualTo(expected);
  }

  @Provide
  Arbitrary<Throwable> hostileExceptions() {
    return exceptions(true);
  }

  @Provide
  Arbitrary<Long> attemptLatencies() {
    return Arbitraries.oneOf(Arbitraries.longs().between(0, Duration.ofMinutes(5).toNanos()),
        Arbitraries.of(0L, Long.MAX_VALUE, Duration.ofSeconds(10).toNanos()));
  }

  @Provide
  Arbitrary<Observation> observations() {
    return observationsWith(exceptions(true));
  }

  @Provide
  Arbitrary<Observation> wellBehavedObservations() {
    return observationsWith(exceptions(false));
  }

  private Arbitrary<Observation> observationsWith(Arbitrary<Throwable> exceptions) {
    Arbitrary<Integer> statuses = Arbitraries.oneOf(Arbitraries.of(0, 200, 204, 400, 401, 403, 404, 408, 409, 413, 422, 429,
        500, 502, 503, 504, 529), Arbitraries.integers().between(-1000, 2000), Arbitraries.of(Integer.MIN_VALUE,
        Integer.MAX_VALUE));
    Arbitrary<Map<String, String>> headers = Arbitraries.maps(
        Arbitraries.oneOf(Arbitraries.of("Retry-After", "retry-after-ms", "RETRY-AFTER", "x-ratelimit-reset-tokens",
            "x-ratelimit-remaining-tokens"),
            Arbitraries.strings().ofMaxLength(10)),
        Arbitraries.oneOf(Arbitraries.of("0", "-1", "1.5", "6m0s", "1h2m3.5s", "1x", "99999999h", "99999999999999999999999", "Wed, 21 Oct 2015 07:28:00 GMT",
            "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "", " ", "NaN", "1e9"),
            Arbitraries.strings().ofMaxLength(40))).ofMaxSize(4);
    Arbitrary<Duration> latencies = Arbitraries.oneOf(Arbitraries.just(null),
        Arbitraries.longs().map(Duration::ofNanos), Arbitraries.of(Duration.ofSeconds(Long.MAX_VALUE),
            Duration.ofSeconds(Long.MIN_VALUE), Duration.ZERO));
    Arbitrary<String> finishReasons = Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.of("stop", "length",
        "content_filter", "refusal", "SAFETY", "tool_calls", "", "error"), Arbitraries.strings().ofMaxLength(20));
    return Combinators.combine(statuses, headers, bodies(), exceptions, latencies, finishReasons,
        Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.strings().ofMaxLength(30)), Arbitraries.of(true, false))
        .as((status, hs, body, exception, latency, finish, rejection, expected) -> {
          Observation.Builder b = Observation.builder().httpStatus(status).body(body).exception(exception)
              .latency(latency).finishReason(finish).verifierRejection(rejection).bodyExpected(expected);
          hs.forEach(b::header);
          return b.build();
        });
  }

  private Arbitrary<String> bodies() {
    Arbitrary<String> stitched = Arbitraries.of(FRAGMENTS).list().ofMaxSize(12).map(l -> String.join("", l));
    Arbitrary<String> large = Arbitraries.of(FRAGMENTS).list().ofMinSize(200).ofMaxSize(600).map(l -> String.join(" ", l));
    return Arbitraries.oneOf(Arbitraries.just(null), Arbitraries.strings().ofMaxLength(300), stitched, large,
        Arbitraries.strings().all().ofMaxLength(80));
  }

  private Arbitrary<Throwable> exceptions(boolean hostile) {
    List<Function<String, Throwable>> leaves = new java.util.ArrayList<>(List.of(
        m -> new HttpTimeoutException(m), m -> new SocketTimeoutException(m), m -> new ConnectException(m),
        m -> new SocketException(m), m -> new UnknownHostException(m), m -> new SSLHandshakeException(m),
        m -> new EOFException(m), m -> new IOException(m), m -> new RuntimeException(m), m -> new InterruptedException(m),
        m -> new IllegalArgumentException(m), m -> new NullPointerException(m),
        m -> new HttpCallException(m == null ? 0 : m.length() * 7 % 700, Map.of("retry-after", List.of(String.valueOf(m))), m)));
    if (hostile) {
      leaves.add(m -> new HostileException());
      leaves.add(m -> new NullObservationFailure());
    }
    Arbitrary<Throwable> leaf = Combinators.combine(Arbitraries.integers().between(0, leaves.size() - 1),
        Arbitraries.oneOf(Arbitraries.just(null), bodies())).as((i, m) -> leaves.get(i).apply(m));
    Arbitrary<Throwable> chained = Combinators.combine(leaf.list().ofMinSize(1).ofMaxSize(40), Arbitraries.of(true, false))
        .as((chain, cyclic) -> {
          Throwable outer = chain.get(0);
          for (int i = 1; i < chain.size(); i++) {
            try {
              chain.get(i - 1).initCause(chain.get(i));
            } catch (IllegalStateException | IllegalArgumentException e) {
              outer = new ExecutionException("wrapped", outer); // cause already set: wrap instead
            }
          }
          if (cyclic && chain.size() > 1) {
            try {
              chain.get(chain.size() - 1).initCause(chain.get(0));
            } catch (IllegalStateException | IllegalArgumentException e) {
              // cause already set
            }
          }
          return outer;
        });
    return Arbitraries.oneOf(Arbitraries.just(null), leaf, chained);
  }

  /** An exception whose every accessor throws. */
  static final class HostileException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    @Override
    public String getMessage() {
      throw new IllegalStateException("getMessage");
    }

    @Override
    public synchronized Throwable getCause() {
      throw new UnsupportedOperationException("getCause");
    }
  }

  /** A broken ObservableFailure that answers null. */
  static final class NullObservationFailure extends RuntimeException implements ObservableFailure {
    private static final long serialVersionUID = 1L;

    @Override
    public Observation observation() {
      return null;
    }
  }
}
