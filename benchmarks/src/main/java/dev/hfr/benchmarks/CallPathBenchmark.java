package dev.hfr.benchmarks;

import dev.hfr.runtime.Hfr;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.core.functions.CheckedSupplier;
import io.github.resilience4j.retry.Retry;
import java.net.ConnectException;
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
 * The three paths of a protected call, each through the HFR generated proxy on the builder's defaults and beside
 * Resilience4j (Retry + CircuitBreaker) and Failsafe (RetryPolicy + CircuitBreaker) in the same run:
 *
 * <ul>
 *   <li>{@code syncClean*}: a blocking read that answers at once (Resilience4j {@code decorateSupplier}, Failsafe
 *       {@code get});
 *   <li>{@code asyncClean*}: an asynchronous read whose future is already complete, the caller waiting for the
 *       result (Resilience4j {@code decorateCompletionStage}, Failsafe {@code getStageAsync});
 *   <li>{@code failureThenSuccess*}: a blocking read that fails once with a connection refusal (a T1 everywhere)
 *       and succeeds on the retry, with zero backoff (Resilience4j {@code decorateCheckedSupplier}: the tool
 *       throws a checked exception).
 * </ul>
 *
 * <p>HFR is {@code Hfr.builder().tenantBudgets(...).build()}: the only setting changed is the per-tenant retry
 * budget (600 retries a minute by default, which rightly stops a loop retrying millions of times a second;
 * raised, still checked and charged on every retry); its decision log goes to {@code System.Logger}
 * {@code dev.hfr.decisions}, set to {@code WARNING} as a production service runs it (at {@code INFO} the
 * figure would be the console's). The others keep their defaults but two a benchmark must
 * change: no wait between attempts (Resilience4j waits 500 ms by default), and breakers that trip at 80 % of
 * the last 100 calls (both trip on the alternating failures by default: Failsafe's after one failure).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CallPathBenchmark {

  private static final String SKU = "sku-42";

  private QuoteTools tools;
  private AsyncQuoteTools asyncTools;
  private ScheduledExecutorService scheduler;
  private Retry retry;
  private CircuitBreaker breaker;
  private dev.failsafe.FailsafeExecutor<Long> failsafe;
  private Hfr hfr;
  private QuoteTools proxy;
  private AsyncQuoteTools asyncProxy;

  @Setup(Level.Trial)
  public void setUp() {
    tools = new QuoteTools();
    asyncTools = new AsyncQuoteTools();
    scheduler = Executors.newSingleThreadScheduledExecutor();
    retry = Protections.r4jRetry();
    breaker = Protections.r4jBreaker();
    failsafe = dev.failsafe.Failsafe.with(dev.failsafe.RetryPolicy.ofDefaults(), Protections.failsafeBreaker());
    // A production service's logging: the default engine's decision log (System.Logger dev.hfr.decisions) at WARNING.
    Protections.decisionLoggerAt(java.util.logging.Level.WARNING);
    hfr = Protections.hfrBuilderDefaults();
    proxy = QuoteTools_Recovering.create(hfr);
    asyncProxy = AsyncQuoteTools_Recovering.create(hfr);
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    hfr.close();
    scheduler.shutdownNow();
  }

  @Benchmark
  public long syncCleanResilience4j() {
    Supplier<Long> call = () -> tools.quote(SKU);
    return Retry.decorateSupplier(retry, CircuitBreaker.decorateSupplier(breaker, call)).get();
  }

  @Benchmark
  public long syncCleanFailsafe() {
    return failsafe.get(() -> tools.quote(SKU));
  }

  @Benchmark
  public long syncCleanHfr() {
    return proxy.quote(SKU);
  }

  @Benchmark
  public long asyncCleanResilience4j() {
    Supplier<CompletionStage<Long>> call = () -> asyncTools.quote(SKU);
    return Retry.decorateCompletionStage(retry, scheduler, CircuitBreaker.decorateCompletionStage(breaker, call))
        .get().toCompletableFuture().join();
  }

  @Benchmark
  public long asyncCleanFailsafe() {
    return failsafe.getStageAsync(() -> asyncTools.quote(SKU)).join();
  }

  @Benchmark
  public long asyncCleanHfr() {
    return asyncProxy.quote(SKU).join();
  }

  @Benchmark
  public long failureThenSuccessResilience4j() throws Throwable {
    CheckedSupplier<Long> call = () -> tools.flakyQuote(SKU);
    return Retry.decorateCheckedSupplier(retry, CircuitBreaker.decorateCheckedSupplier(breaker, call)).get();
  }

  @Benchmark
  public long failureThenSuccessFailsafe() {
    return failsafe.get(() -> tools.flakyQuote(SKU));
  }

  @Benchmark
  public long failureThenSuccessHfr() throws ConnectException {
    return proxy.flakyQuote(SKU);
  }
}
