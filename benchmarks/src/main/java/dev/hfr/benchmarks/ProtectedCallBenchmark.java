package dev.hfr.benchmarks;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionLog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.core.functions.CheckedSupplier;
import io.github.resilience4j.retry.Retry;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.concurrent.atomic.AtomicBoolean;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * One protected tool call, four ways: direct, Resilience4j (Retry + CircuitBreaker + Bulkhead),
 * Failsafe (RetryPolicy + CircuitBreaker + Bulkhead) and the HFR generated proxy. {@code happy*}: the call
 * succeeds. {@code transient*}: the call fails once with a connection error (T1) and the retry succeeds,
 * with zero backoff everywhere.
 *
 * <p>The other libraries decorate a lambda per call, which is how a call with arguments is written
 * with them; the HFR proxy is a plain method call.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ProtectedCallBenchmark {

  private static final String SKU = "sku-42";

  private QuoteTools direct;
  private Retry retry;
  private CircuitBreaker breaker;
  private Bulkhead bulkhead;
  private dev.failsafe.FailsafeExecutor<Long> failsafe;
  /** The builder's defaults (see {@link Protections#hfrDefaults}): where users start. */
  private Hfr hfr;
  private QuoteTools proxy;
  /** The engine of the earlier rounds, which discards every decision event: labelled "discarding sink". */
  private Hfr hfrDiscarding;
  private QuoteTools proxyDiscarding;
  /** The defaults, but every decision event serialised and written to a file by the background writer. */
  private Hfr hfrFileLog;
  private QuoteTools proxyFileLog;
  private DecisionLog fileLog;
  private Path fileLogDir;
  /** The defaults on a clock read from memory ({@link TickerClock}): the task row without the host's clock reading. */
  private TickerClock tickerClock;
  private Path tickerClockLedgerDir;
  private Hfr hfrTickerClock;
  private QuoteTools proxyTickerClock;
  private Hfr hfrEveryCall;
  private QuoteTools proxyEveryCall;
  /** The file log's counts when the iteration began, and whether a thread has reported this iteration's. */
  private long fileLogQueuedBefore;
  private long fileLogDroppedBefore;
  /** The CPU time of each of the decision logs' threads when the iteration began, by thread id. */
  private Map<Long, Long> fileLogThreadsCpuBefore = Map.of();
  private final AtomicBoolean fileLogReported = new AtomicBoolean();

  @Setup(Level.Trial)
  public void setUp() {
    direct = new QuoteTools();
    retry = Protections.r4jRetry();
    breaker = Protections.r4jBreaker();
    bulkhead = Protections.r4jBulkhead();
    failsafe = Protections.failsafe();
    Protections.decisionLoggerAt(java.util.logging.Level.WARNING);
    hfr = Protections.hfrDefaults();
    proxy = QuoteTools_Recovering.create(hfr);
    hfrDiscarding = Protections.hfr(new InMemoryLedger());
    proxyDiscarding = QuoteTools_Recovering.create(hfrDiscarding);
    try {
      fileLogDir = Files.createTempDirectory("hfr-bench-decisions");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    fileLog = DecisionLog.toFile(fileLogDir.resolve("decisions.jsonl")).maxFileBytes(64L << 20).keepFiles(1).build();
    hfrFileLog = Protections.hfrDefaults(fileLog);
    proxyFileLog = QuoteTools_Recovering.create(hfrFileLog);
    hfrEveryCall = Protections.hfrTimingEveryCall();
    proxyEveryCall = QuoteTools_Recovering.create(hfrEveryCall);
    tickerClock = new TickerClock();
    try {
      tickerClockLedgerDir = Files.createTempDirectory("hfr-bench-ledger");
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    hfrTickerClock = Protections.hfrDefaults(tickerClock, tickerClockLedgerDir);
    proxyTickerClock = QuoteTools_Recovering.create(hfrTickerClock);
  }

  @Setup(Level.Iteration)
  public void iterationStarts() {
    fileLogQueuedBefore = fileLog.queued();
    fileLogDroppedBefore = fileLog.dropped();
    fileLogThreadsCpuBefore = logThreadsCpuNanos(false);
    fileLogReported.set(false);
  }

  /**
   * The CPU time so far of each of the decision logs' threads (only the file log's have work here): the
   * writer, which serialises, its file thread, which makes the system calls, and the deleter of rolled-over
   * files; or of the writers alone.
   */
  static Map<Long, Long> logThreadsCpuNanos(boolean writersAlone) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new HashMap<>();
    for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
      String name = t == null ? "" : t.getThreadName();
      if (writersAlone ? name.equals("hfr-decision-log") : name.startsWith("hfr-decision-log")) {
        long nanos = threads.getThreadCpuTime(t.getThreadId());
        if (nanos >= 0) {
          cpu.put(t.getThreadId(), nanos);
        }
      }
    }
    return cpu;
  }

  /** The CPU time the decision logs' threads (or writers) took since {@code before}, thread by thread. */
  static long logThreadsCpuSince(Map<Long, Long> before, boolean writersAlone) {
    long sum = 0;
    for (Map.Entry<Long, Long> now : logThreadsCpuNanos(writersAlone).entrySet()) {
      sum += now.getValue() - before.getOrDefault(now.getKey(), 0L);
    }
    return sum;
  }

  /**
   * Whether the file log's writer kept up, per iteration: the events the calls handed to the decision log
   * and how many of those it had to drop because its queue was full (a call never waits for the writer).
   * JMH reports both beside the time ({@code fileLogEvents}, {@code fileLogDropped}: sums over the measured
   * iterations), with the CPU time the log's threads took ({@code fileLogWriterCpuNanos}) and, of it, the
   * serialising writer thread's ({@code fileLogSerialiserCpuNanos}); one thread reports the whole
   * iteration's counts, the others zero.
   */
  @State(Scope.Thread)
  @AuxCounters(AuxCounters.Type.EVENTS)
  public static class FileLogCounts {
    public long fileLogEvents;
    public long fileLogDropped;
    public long fileLogWriterCpuNanos;
    public long fileLogSerialiserCpuNanos;

    @Setup(Level.Iteration)
    public void clear() {
      fileLogEvents = 0;
      fileLogDropped = 0;
      fileLogWriterCpuNanos = 0;
      fileLogSerialiserCpuNanos = 0;
    }

    @TearDown(Level.Iteration)
    public void count(ProtectedCallBenchmark benchmark) {
      if (benchmark.fileLogReported.compareAndSet(false, true)) {
        fileLogDropped = benchmark.fileLog.dropped() - benchmark.fileLogDroppedBefore;
        fileLogEvents = benchmark.fileLog.queued() - benchmark.fileLogQueuedBefore + fileLogDropped;
        fileLogWriterCpuNanos = logThreadsCpuSince(benchmark.fileLogThreadsCpuBefore, false);
        fileLogSerialiserCpuNanos = logThreadsCpuSince(benchmark.fileLogThreadsCpuBefore, true);
      }
    }
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    hfr.close();
    hfrDiscarding.close();
    hfrFileLog.close();
    try {
      fileLog.close();
      // Whether the writer kept up: events it could not take in time were dropped, never waited for.
      System.out.printf("%ndecision log file: %,d events written, %,d dropped%n", fileLog.written(), fileLog.dropped());
      try (var files = Files.list(fileLogDir)) {
        for (Path p : files.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(fileLogDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    hfrEveryCall.close();
    hfrTickerClock.close();
    try {
      tickerClock.close();
      deleteTree(tickerClockLedgerDir);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  @Benchmark
  public long happyDirect() {
    return direct.quote(SKU);
  }

  @Benchmark
  public long happyResilience4j() {
    Supplier<Long> call = () -> direct.quote(SKU);
    return Retry.decorateSupplier(retry,
        CircuitBreaker.decorateSupplier(breaker, Bulkhead.decorateSupplier(bulkhead, call))).get();
  }

  @Benchmark
  public long happyFailsafe() {
    return failsafe.get(() -> direct.quote(SKU));
  }

  @Benchmark
  public long happyHfr() {
    return proxy.quote(SKU);
  }

  @Benchmark
  public long happyHfrDiscarding() {
    return proxyDiscarding.quote(SKU);
  }

  /** Where an agent's turn starts: open a task, make one clean read in it, close the task. */
  @Benchmark
  public long taskWithOneCallHfr() {
    try (TaskScope task = hfr.openTask(TaskSpec.builder("bench", "task").build())) {
      return proxy.quote(SKU);
    }
  }

  /**
   * The same with a deadline, as the agent loops of the docs open their tasks: the deadline bounds the call's attempt
   * (the shared attempt timer watches it).
   */
  @Benchmark
  public long taskWithDeadlineHfr() {
    try (TaskScope task = hfr.openTask(TaskSpec.builder("bench", "task").deadline(TASK_DEADLINE).build())) {
      return proxy.quote(SKU);
    }
  }

  /**
   * {@link #taskWithOneCallHfr} on an engine whose clock is read from memory ({@link TickerClock}), not the host's:
   * the open's one clock reading — a task's wall time runs from it — then costs a field read. Labelled in the
   * tables: it shows what the host's clock costs the row, and is no configuration to run.
   */
  @Benchmark
  public long taskWithOneCallHfrTickerClock() {
    try (TaskScope task = hfrTickerClock.openTask(TaskSpec.builder("bench", "task").build())) {
      return proxyTickerClock.quote(SKU);
    }
  }

  private static final Duration TASK_DEADLINE = Duration.ofSeconds(30);

  /**
   * An agent's calls run inside a task: each joins the task open on its thread, which tracks the task's
   * limits, budgets and report. One task per thread and iteration, with no limits (a benchmark makes
   * millions of calls).
   */
  @State(Scope.Thread)
  public static class InTask {
    private TaskScope task;

    @Setup(Level.Iteration)
    public void open(ProtectedCallBenchmark benchmark) {
      task = benchmark.hfr.openTask(TaskSpec.builder("bench", "task-" + Thread.currentThread().getId())
          .limits(TaskLimits.unlimited()).build());
    }

    @TearDown(Level.Iteration)
    public void close() {
      task.close();
    }
  }

  @Benchmark
  public long happyHfrInTask(InTask task) {
    return proxy.quote(SKU);
  }

  /** The same, with every call timed ({@code CallTiming.EVERY_CALL}): two clock readings per call. */
  @Benchmark
  public long happyHfrEveryCallTimed() {
    return proxyEveryCall.quote(SKU);
  }

  @Benchmark
  public long transientDirect() {
    // Direct has no retry: the caller's own loop, one retry.
    try {
      return direct.flakyQuote(SKU);
    } catch (java.net.ConnectException first) {
      try {
        return direct.flakyQuote(SKU);
      } catch (java.net.ConnectException second) {
        throw new IllegalStateException(second);
      }
    }
  }

  @Benchmark
  public long transientResilience4j() throws Throwable {
    CheckedSupplier<Long> call = () -> direct.flakyQuote(SKU);
    return Retry.decorateCheckedSupplier(retry,
        CircuitBreaker.decorateCheckedSupplier(breaker, Bulkhead.decorateCheckedSupplier(bulkhead, call))).get();
  }

  @Benchmark
  public long transientFailsafe() {
    return failsafe.get(() -> direct.flakyQuote(SKU));
  }

  @Benchmark
  public long transientHfr() throws java.net.ConnectException {
    return proxy.flakyQuote(SKU);
  }

  @Benchmark
  public long transientHfrFileLog(FileLogCounts counts) throws java.net.ConnectException {
    return proxyFileLog.flakyQuote(SKU);
  }

  @Benchmark
  public long transientHfrDiscarding() throws java.net.ConnectException {
    return proxyDiscarding.flakyQuote(SKU);
  }
}
