package dev.hfr.benchmarks;

import dev.hfr.runtime.Hfr;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.retry.Retry;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One clean asynchronous tool call (the future is already complete), four ways: direct, Resilience4j's
 * {@code decorateCompletionStage} (Retry + CircuitBreaker + Bulkhead), Failsafe's {@code getStageAsync}
 * (RetryPolicy + CircuitBreaker + Bulkhead, with its default executor) and the HFR generated proxy (the
 * asynchronous driver). Each waits for the result, so the figure is the whole call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class AsyncCallBenchmark {

  private static final String SKU = "sku-42";

  private AsyncQuoteTools direct;
  private ScheduledExecutorService scheduler;
  private Retry retry;
  private CircuitBreaker breaker;
  private Bulkhead bulkhead;
  private dev.failsafe.FailsafeExecutor<Long> failsafe;
  private Hfr hfr;
  private AsyncQuoteTools proxy;

  @Setup(Level.Trial)
  public void setUp() {
    direct = new AsyncQuoteTools();
    scheduler = Executors.newSingleThreadScheduledExecutor();
    retry = Protections.r4jRetry();
    breaker = Protections.r4jBreaker();
    bulkhead = Protections.r4jBulkhead();
    failsafe = Protections.failsafe();
    hfr = Protections.hfr(null);
    proxy = AsyncQuoteTools_Recovering.create(hfr);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    hfr.close();
    scheduler.shutdownNow();
  }

  @Benchmark
  public long asyncDirect() {
    return direct.quote(SKU).join();
  }

  @Benchmark
  public long asyncResilience4j() {
    Supplier<CompletionStage<Long>> call = () -> direct.quote(SKU);
    return Retry.decorateCompletionStage(retry, scheduler,
            CircuitBreaker.decorateCompletionStage(breaker, Bulkhead.decorateCompletionStage(bulkhead, call)))
        .get().toCompletableFuture().join();
  }

  @Benchmark
  public long asyncFailsafe() {
    return failsafe.getStageAsync(() -> direct.quote(SKU)).join();
  }

  @Benchmark
  public long asyncHfr() {
    return proxy.quote(SKU).join();
  }
}
