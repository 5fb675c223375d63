package dev.hfr.benchmarks;

import dev.hfr.runtime.Hfr;
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
 * Where the time of a clean protected call goes: the parts the happy path is made of, each alone
 * (a clock reading, Micrometer meters, HFR's breaker and bulkhead beside Resilience4j's breaker), and the
 * HFR proxy with parts switched off. Not a comparison with the other libraries (that is
 * {@link ProtectedCallBenchmark}); it explains its numbers.
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
  }

  @TearDown
  public void tearDown() {
    noProtection.close();
    noMeters.close();
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
}
