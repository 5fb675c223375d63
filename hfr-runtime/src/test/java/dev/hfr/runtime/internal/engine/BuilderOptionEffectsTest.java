package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.time.Sleeper;
import dev.hfr.runtime.time.VirtualTime;
import dev.hfr.runtime.verify.Verdict;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * What each option of {@code Hfr.builder()} changes in a running call, for the options no other test
 * already shows through a call ({@code BuilderOptionCoverageTest} lists where the others are proven).
 */
@DisplayName("Each builder option changes what a call does")
class BuilderOptionEffectsTest {

  private final Fixtures f = new Fixtures();

  /** A sleeper that only records what it was asked to wait. */
  private static final class RecordingSleeper implements Sleeper {
    final List<Long> waits = new CopyOnWriteArrayList<>();

    @Override
    public void sleep(long nanos) {
      waits.add(nanos);
    }
  }

  /** Two 503s then an answer: two backoffs (a third 503 in a row would stop retrying). */
  private static ScriptedTool<String> flaky() {
    return new ScriptedTool<String>("q").failsTimes(2, Fixtures.unavailable()).returns("hit");
  }

  private static List<Long> backoffsWith(Hfr.Builder builder, RecordingSleeper sleeper) {
    try (Hfr hfr = builder.sleeper(sleeper).build()) {
      assertThat(hfr.execute(Fixtures.read("search"), flaky())).isEqualTo("hit");
    }
    return sleeper.waits;
  }

  @Test
  @DisplayName("sleeper: the blocking driver waits out every backoff on the given sleeper")
  void sleeper() {
    RecordingSleeper sleeper = new RecordingSleeper();
    List<Long> waits = backoffsWith(f.builder(), sleeper);
    assertThat(waits).hasSize(2).allMatch(n -> n > 0);
  }

  @Test
  @DisplayName("random: the backoff's jitter is drawn from the given generator (all zeros: no wait at all)")
  void random() {
    List<Long> seeded = backoffsWith(f.builder(), new RecordingSleeper());
    List<Long> zeros = backoffsWith(new Fixtures().builder().random(() -> 0L), new RecordingSleeper());
    assertThat(seeded).anyMatch(n -> n > 0);
    assertThat(zeros).hasSize(2).allMatch(n -> n == 0L);
  }

  @Test
  @DisplayName("seed: one seed gives the same backoffs every run, another seed other ones")
  void seed() {
    List<Long> first = backoffsWith(new Fixtures().builder().seed(7), new RecordingSleeper());
    List<Long> again = backoffsWith(new Fixtures().builder().seed(7), new RecordingSleeper());
    List<Long> other = backoffsWith(new Fixtures().builder().seed(8), new RecordingSleeper());
    assertThat(again).isEqualTo(first);
    assertThat(other).isNotEqualTo(first);
  }

  @Test
  @DisplayName("clock: the task deadline is read on the given clock; time spent there ends retrying")
  void clock() {
    VirtualTime clock = f.time;
    AtomicInteger attempts = new AtomicInteger();
    ScriptedTool<String> tool = new ScriptedTool<String>("q") {
      @Override
      public String proceed(String key) throws Exception {
        attempts.incrementAndGet();
        clock.advance(TimeUnit.SECONDS.toNanos(3)); // three seconds pass on the engine's clock
        throw Fixtures.unavailable();
      }
    };
    try (Hfr hfr = f.engine(); TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").deadline(Duration.ofSeconds(2)).build())) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), tool));
      assertThat(e).isNotNull();
      assertThat(attempts).hasValue(1);
      assertThat(task.report().retryCount()).isZero();
    }
  }

  @Test
  @DisplayName("scheduler: an asynchronous call waits out its backoff on the given scheduler")
  void scheduler() throws Exception {
    List<String> threads = new CopyOnWriteArrayList<>();
    ScheduledExecutorService mine = Executors.newSingleThreadScheduledExecutor(r -> new Thread(r, "my-scheduler"));
    AsyncToolInvocation<String> tool = new AsyncToolInvocation<>() {
      @Override
      public CompletionStage<String> start(String key) {
        threads.add(Thread.currentThread().getName());
        return threads.size() == 1 ? CompletableFuture.failedFuture(Fixtures.unavailable()) : CompletableFuture.completedFuture("hit");
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return "q";
      }
    };
    try (Hfr hfr = f.builder().scheduler(mine).build()) {
      assertThat(hfr.executeAsync(Fixtures.read("search"), tool).get(10, TimeUnit.SECONDS)).isEqualTo("hit");
    } finally {
      mine.shutdownNow();
    }
    assertThat(threads).hasSize(2);
    assertThat(threads.get(1)).isEqualTo("my-scheduler");
  }

  @Test
  @DisplayName("classifier: the given classifier decides the fault class (a 503 called permanent is not retried)")
  void classifier() {
    ScriptedTool<String> tool = flaky();
    try (Hfr hfr = f.builder().classifier(o -> new Classification(Fault.T7, 1.0, null, 0, "app-rule")).build()) {
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), tool));
      assertThat(e.outcome().errorType()).isEqualTo(Fault.T7);
    }
    assertThat(tool.methodCalls).isEqualTo(1);
  }

  @Test
  @DisplayName("escalationHandler: an escalated call's evidence reaches the given handler")
  void escalationHandler() {
    List<EvidenceBundle> received = new ArrayList<>();
    ScriptedTool<String> mail = new ScriptedTool<String>("bob@example.com").fails(Fixtures.timeout());
    try (Hfr hfr = f.builder().escalationHandler(received::add).build()) {
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.irreversible(), mail));
    }
    assertThat(received).singleElement().satisfies(b -> assertThat(b.tool()).isEqualTo(Fixtures.irreversible().name()));
  }

  @Test
  @DisplayName("bulkheads: a call beyond the target's concurrency limit is not let through while another runs")
  void bulkheads() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    ToolDescriptor once = Fixtures.readBuilder("search").retry(RetrySpec.of(1, 1, 1, Fault.T1)).build();
    ScriptedTool<String> holding = new ScriptedTool<String>("q") {
      @Override
      public String proceed(String key) throws Exception {
        inside.countDown();
        release.await(10, TimeUnit.SECONDS);
        return "first";
      }
    };
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (Hfr hfr = f.builder().bulkheads(Bulkheads.builder().defaults(1, 0).build()).build()) {
      Future<String> first = pool.submit(() -> hfr.execute(once, holding));
      assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
      ScriptedTool<String> second = new ScriptedTool<String>("q").returns("second");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(once, second));
      assertThat(e.outcome().reason()).isEqualTo(Reason.BULKHEAD_FULL.code());
      assertThat(second.methodCalls).isZero();
      release.countDown();
      assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("first");
    } finally {
      release.countDown();
      pool.shutdownNow();
    }
  }

  @Test
  @DisplayName("contextCompressor: a context overflow is handed to the given compressor, then resent")
  void contextCompressor() {
    AtomicInteger rounds = new AtomicInteger();
    ScriptedTool<String> model = new ScriptedTool<String>("a long prompt")
        .fails(Fixtures.http(400, "{\"error\":{\"code\":\"context_length_exceeded\"}}")).returns("ok");
    try (Hfr hfr = f.builder().contextCompressor((tool, invocation, round) -> rounds.incrementAndGet() > 0).build()) {
      assertThat(hfr.execute(Fixtures.read("complete"), model)).isEqualTo("ok");
    }
    assertThat(rounds).hasValue(1);
    assertThat(f.sink.actions()).startsWith(Action.COMPRESS, Action.RETRY);
  }

  @Test
  @DisplayName("verificationHook: a V2 tool's result is judged by the given hook; a rejected result is not accepted")
  void verificationHook() {
    ToolDescriptor judged = Fixtures.readBuilder("search").verify(VerifyLevel.V2).build();
    List<Object> judgedResults = new CopyOnWriteArrayList<>();
    try (Hfr hfr = f.builder().verificationHook(VerifyLevel.V2, (tool, result) -> {
      judgedResults.add(result);
      return "good".equals(result) ? Verdict.accept() : Verdict.reject("judge says no");
    }).build()) {
      assertThat(hfr.execute(judged, new ScriptedTool<String>("q").returns("bad").returns("good"))).isEqualTo("good");
    }
    assertThat(judgedResults).containsExactly("bad", "good");
  }

  @Test
  @DisplayName("maxRetryAfter: a Retry-After longer than the given maximum ends retrying instead of waiting")
  void maxRetryAfter() {
    ScriptedTool<String> limited = new ScriptedTool<String>("q")
        .fails(Fixtures.http(429, "Retry-After", "5", "{\"error\":{\"type\":\"rate_limit_error\"}}")).returns("hit");
    RecordingSleeper sleeper = new RecordingSleeper();
    try (Hfr hfr = f.builder().sleeper(sleeper).maxRetryAfter(Duration.ofSeconds(1)).build()) {
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), limited));
    }
    assertThat(limited.methodCalls).isEqualTo(1);
    assertThat(sleeper.waits).isEmpty();

    ScriptedTool<String> waited = new ScriptedTool<String>("q")
        .fails(Fixtures.http(429, "Retry-After", "5", "{\"error\":{\"type\":\"rate_limit_error\"}}")).returns("hit");
    RecordingSleeper patient = new RecordingSleeper();
    try (Hfr hfr = new Fixtures().builder().sleeper(patient).build()) {
      assertThat(hfr.execute(Fixtures.read("search"), waited)).isEqualTo("hit");
    }
    assertThat(patient.waits).containsExactly(TimeUnit.SECONDS.toNanos(5));
  }

  @Test
  @DisplayName("sameFaultLimit: the same fault this many times in a row stops retrying")
  void sameFaultLimit() {
    ScriptedTool<String> defaults = new ScriptedTool<String>("q").fails(Fixtures.unavailable());
    try (Hfr hfr = f.engine()) {
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), defaults));
    }
    ScriptedTool<String> strict = new ScriptedTool<String>("q").fails(Fixtures.unavailable());
    try (Hfr hfr = new Fixtures().builder().sameFaultLimit(2).build()) {
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), strict));
    }
    assertThat(defaults.methodCalls).isEqualTo(3);
    assertThat(strict.methodCalls).isEqualTo(2);
  }

  @Test
  @DisplayName("circuitBreakers: the given breakers decide; one that opens after a failed call blocks the next call")
  void circuitBreakers() {
    CircuitBreakers oneStrike = CircuitBreakers.builder(f.time)
        .defaults(CircuitBreakerConfig.builder().consecutiveFailures(1).cooldown(Duration.ofMinutes(1)).build()).build();
    ToolDescriptor once = Fixtures.readBuilder("search").retry(RetrySpec.of(1, 1, 1, Fault.T1)).build();
    try (Hfr hfr = f.builder().circuitBreakers(oneStrike).build()) {
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(once, new ScriptedTool<String>("q").fails(Fixtures.unavailable())));
      ScriptedTool<String> next = new ScriptedTool<String>("q").returns("hit");
      ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(once, next));
      assertThat(e.outcome().reason()).isEqualTo(Reason.CIRCUIT_OPEN.code());
      assertThat(next.methodCalls).isZero();
    }
  }

  @Test
  @DisplayName("features: a feature switched off is not used (no retry: a 503 ends the call)")
  void features() {
    ScriptedTool<String> tool = flaky();
    try (Hfr hfr = f.engine(HfrFeatures.all().toBuilder().retry(false).build())) {
      catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), tool));
    }
    assertThat(tool.methodCalls).isEqualTo(1);
  }
}
