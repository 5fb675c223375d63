package dev.hfr.benchmarks;

import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.DefaultFailureClassifier;
import dev.hfr.runtime.classify.Observation;
import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.CircuitBreaker;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.TargetKind;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.SplittableRandom;
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
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Where the time of a protected call goes: the parts the happy path is made of, each alone (a clock
 * reading, Micrometer meters, HFR's breaker and bulkhead beside Resilience4j's breaker), the HFR proxy with
 * parts switched off, and the parts a failure adds (classifying it, the argument hash, the decision event
 * and its JSON, handing it to the decision log, the exception a failed call ends in). Not a comparison with
 * the other libraries (that is {@link ProtectedCallBenchmark}); it explains its numbers.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CostBreakdownBenchmark {

  private static final String SKU = "sku-42";

  private Counter counter;
  private Timer timer;
  private DistributionSummary summary;
  private CircuitBreaker breaker;
  private Bulkhead bulkhead;
  private io.github.resilience4j.circuitbreaker.CircuitBreaker r4jBreaker;
  private Hfr noProtection;
  private Hfr noMeters;
  private QuoteTools noProtectionProxy;
  private QuoteTools noMetersProxy;
  private final DefaultFailureClassifier classifier = new DefaultFailureClassifier();
  private final ConnectException refused = new QuoteTools.Refused();
  private final List<Object> args = List.of(SKU);
  private final DecisionEvent event = new DecisionEvent(1_700_000_000_000L, "enforce", "default", "hfr-1-1", 1,
      "QuoteTools.flakyQuote", Risk.R0, 1, DegradeLevel.L0, Fault.T1, 0.95, "exception.connect", Action.RETRY,
      Reason.RETRYABLE, 0, 0, 2, 9, null, "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", null, null,
      null);
  private final DecisionEventJson json = new DecisionEventJson();
  private final ObjectWriter databind = JsonMapper.builder().build().writerFor(DecisionEvent.class);
  private DecisionLog logBelowInfo;
  private DecisionLog logToFile;
  private Path logDir;

  @Setup
  public void setUp() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    counter = registry.counter("counter");
    timer = registry.timer("timer");
    summary = registry.summary("summary");
    breaker = new CircuitBreaker(TargetKind.TOOL, "quote", CircuitBreakerConfig.builder()
        .windowSize(Protections.WINDOW)
        .errorRateThreshold(Protections.FAILURE_RATE_PERCENT / 100.0)
        .consecutiveFailures(Integer.MAX_VALUE)
        .build(), Clock.system(), new SplittableRandom(1));
    bulkhead = new Bulkhead(TargetKind.TOOL, "quote", Protections.CONCURRENT_CALLS, 0);
    r4jBreaker = Protections.r4jBreaker();
    // A composite registry with no registries in it: every meter is a no-op.
    noProtection = Hfr.builder().meterRegistry(new CompositeMeterRegistry()).decisionSink(DecisionSink.discarding())
        .features(HfrFeatures.builder().circuitBreaker(false).verification(false).build())
        .ledger(new InMemoryLedger()).build();
    noMeters = Hfr.builder().meterRegistry(new CompositeMeterRegistry()).decisionSink(DecisionSink.discarding())
        .ledger(new InMemoryLedger()).build();
    noProtectionProxy = QuoteTools_Recovering.create(noProtection);
    noMetersProxy = QuoteTools_Recovering.create(noMeters);
    Protections.decisionLoggerAt(java.util.logging.Level.WARNING);
    logBelowInfo = DecisionLog.toSystemLogger().build();
    try {
      logDir = Files.createTempDirectory("hfr-bench-parts");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    logToFile = DecisionLog.toFile(logDir.resolve("decisions.jsonl")).maxFileBytes(64L << 20).keepFiles(1).build();
  }

  @TearDown
  public void tearDown() {
    noProtection.close();
    noMeters.close();
    try {
      logBelowInfo.close();
      logToFile.close();
      System.out.printf("%ndecision log file: %,d events written, %,d dropped%n", logToFile.written(), logToFile.dropped());
      try (var files = Files.list(logDir)) {
        for (Path p : files.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Benchmark
  public long clockReading() {
    return System.nanoTime();
  }

  @Benchmark
  public void micrometerCounter() {
    counter.increment();
  }

  @Benchmark
  public void micrometerTimer() {
    timer.record(100, TimeUnit.NANOSECONDS);
  }

  @Benchmark
  public void micrometerSummary() {
    summary.record(1);
  }

  @Benchmark
  public void hfrBreakerSuccess() {
    breaker.tryAcquire();
    breaker.onSuccess(100, 0);
  }

  @Benchmark
  public void resilience4jBreakerSuccess() {
    r4jBreaker.acquirePermission();
    r4jBreaker.onSuccess(100, TimeUnit.NANOSECONDS);
  }

  @Benchmark
  public void hfrBulkhead() {
    bulkhead.tryAcquire(false);
    bulkhead.release();
  }

  /** The proxy with breakers, bulkheads and verification off and no-op meters: the engine's own dispatch. */
  @Benchmark
  public long hfrProxyWithoutProtection() {
    return noProtectionProxy.quote(SKU);
  }

  /** The proxy with all protection but no-op meters. */
  @Benchmark
  public long hfrProxyWithoutMeters() {
    return noMetersProxy.quote(SKU);
  }

  /** Classifying a refused connection (T1) with the default classifier. */
  @Benchmark
  public Object failureClassification() {
    return classifier.classify(Observation.builder().exception(refused).build());
  }

  /** The SHA-256 of the canonical arguments: a ledger key's input, and the {@code argsHash} of an event. */
  @Benchmark
  public String argumentHash() {
    return IdempotencyKeys.argsHash(args);
  }

  /** A decision event as JSON, UTF-8, into the reused buffer: what the decision log's writer thread pays per event. */
  @Benchmark
  public int decisionEventJson() {
    return json.write(event).length();
  }

  /** The same JSON from Jackson databind, as a string, then UTF-8: how the writer serialised events before. */
  @Benchmark
  public byte[] decisionEventJsonDatabind() throws Exception {
    return databind.writeValueAsString(event).getBytes(StandardCharsets.UTF_8);
  }

  /** The engine's question before it builds an event, with {@code dev.hfr.decisions} below INFO. */
  @Benchmark
  public boolean decisionLogBelowInfo() {
    return logBelowInfo.wantsEvents();
  }

  /** Handing an event to the decision log of a file (the caller's share; the writer thread does the rest). */
  @Benchmark
  public void decisionLogRecord() {
    logToFile.record(event);
  }

  /** The exception a failed call ends in, with the stack trace the JVM fills in by default. */
  @Benchmark
  public Object exceptionWithStackTrace() {
    return new IllegalStateException("Search.find failed (T7): permanent_error", refused);
  }
}
