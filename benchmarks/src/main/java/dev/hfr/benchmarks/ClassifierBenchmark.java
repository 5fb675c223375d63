package dev.hfr.benchmarks;

import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.Observation;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The classifier alone, over a mix of real response shapes: provider 429 with Retry-After, a quota 429,
 * 503, 529 overloaded, 400 context length, 403, a content-filter finish reason, a connection refusal and
 * a read timeout. Reported as operations per second (one operation = one classification).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ClassifierBenchmark {

  private final DefaultFailureClassifier classifier = new DefaultFailureClassifier();
  private Observation[] shapes;
  private int next;

  @Setup
  public void setUp() {
    shapes = new Observation[] {
      Observation.builder().httpStatus(429).header("retry-after", "2")
          .body("{\"error\":{\"message\":\"Rate limit reached for requests\",\"type\":\"requests\",\"code\":\"rate_limit_exceeded\"}}").build(),
      Observation.builder().httpStatus(429)
          .body("{\"error\":{\"message\":\"You exceeded your current quota\",\"type\":\"insufficient_quota\",\"code\":\"insufficient_quota\"}}").build(),
      Observation.builder().httpStatus(503).body("upstream connect error").latency(Duration.ofMillis(40)).build(),
      Observation.builder().httpStatus(529)
          .body("{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}").build(),
      Observation.builder().httpStatus(400)
          .body("{\"error\":{\"message\":\"This model's maximum context length is 128000 tokens.\",\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}").build(),
      Observation.builder().httpStatus(403).body("{\"error\":{\"type\":\"permission_error\"}}").build(),
      Observation.builder().httpStatus(200).finishReason("content_filter").build(),
      Observation.of(new ConnectException("Connection refused")),
      Observation.of(new SocketTimeoutException("Read timed out")),
    };
  }

  @Benchmark
  public Classification classify() {
    Observation o = shapes[next];
    next = next + 1 == shapes.length ? 0 : next + 1;
    return classifier.classify(o);
  }
}
