package dev.hfr.benchmarks;

import dev.failsafe.Failsafe;
import dev.failsafe.FailsafeExecutor;
import dev.failsafe.Timeout;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.internal.engine.AttemptTimer;
import io.github.resilience4j.timelimiter.TimeLimiter;
import io.github.resilience4j.timelimiter.TimeLimiterConfig;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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
 * What bounding a clean call costs: the HFR proxy without and with {@code @Timeout(ms = 2000)} (the attempt
 * stays on the caller's thread; one shared timer thread would interrupt it), Failsafe's {@code Timeout}
 * (also on the caller's thread, with its scheduler), and Resilience4j's {@code TimeLimiter} (which needs
 * the call as a future on another thread: the usual way to use it). A 2 s bound never fires here.
 * {@code timerStartStop} is the bound alone: arming and disarming the calling thread's watch of the shared
 * timer, which with one clock reading is what a bounded clean call adds.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class TimeoutBenchmark {

  private static final String SKU = "sku-42";
  private static final Duration BOUND = Duration.ofSeconds(2);

  private QuoteTools direct;
  private Hfr hfr;
  private QuoteTools untimed;
  private TimedQuoteTools timed;
  private FailsafeExecutor<Long> failsafe;
  private TimeLimiter limiter;
  private ExecutorService pool;
  private AttemptTimer timer;

  @Setup(Level.Trial)
  public void setUp() {
    direct = new QuoteTools();
    Protections.decisionLoggerAt(java.util.logging.Level.WARNING);
    hfr = Protections.hfrDefaults();
    untimed = QuoteTools_Recovering.create(hfr);
    timed = TimedQuoteTools_Recovering.create(hfr);
    failsafe = Failsafe.with(Timeout.<Long>of(BOUND));
    limiter = TimeLimiter.of(TimeLimiterConfig.custom().timeoutDuration(BOUND).build());
    pool = Executors.newFixedThreadPool(4);
    timer = new AttemptTimer(System::nanoTime, TimeUnit.MILLISECONDS.toNanos(100));
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    hfr.close();
    pool.shutdownNow();
    timer.close();
  }

  @Benchmark
  public long hfrWithoutTimeout() {
    return untimed.quote(SKU);
  }

  @Benchmark
  public long hfrWithTimeout() {
    return timed.quote(SKU);
  }

  @Benchmark
  public boolean timerStartStop() {
    return timer.start(System.nanoTime() + BOUND.toNanos()).stop();
  }

  @Benchmark
  public long failsafeTimeout() {
    return failsafe.get(() -> direct.quote(SKU));
  }

  @Benchmark
  public long resilience4jTimeLimiter() throws Exception {
    return limiter.executeFutureSupplier(() -> CompletableFuture.supplyAsync(() -> direct.quote(SKU), pool));
  }
}
