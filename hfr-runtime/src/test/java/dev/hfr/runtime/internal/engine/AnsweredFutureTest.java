package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.breaker.Bulkhead;
import dev.hfr.runtime.breaker.Bulkheads;
import dev.hfr.runtime.breaker.TargetKind;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Asynchronous reads: a future that has already answered takes the clean read's inline path")
class AnsweredFutureTest {

  private final Fixtures f = new Fixtures();

  /** An asynchronous read whose attempts are the stages {@code attempts} gives, one per start. */
  static final class AsyncRead extends AsyncToolInvocation<String> {
    private final Supplier<CompletionStage<String>> attempts;
    final AtomicInteger starts = new AtomicInteger();

    AsyncRead(Supplier<CompletionStage<String>> attempts) {
      this.attempts = attempts;
    }

    @Override
    public CompletionStage<String> start(String idempotencyKey) {
      starts.incrementAndGet();
      return attempts.get();
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return "sku-1";
    }
  }

  private double cleanCalls() {
    return f.registry.get("harness.calls").functionCounter().count();
  }

  @Test
  @DisplayName("an answered future is accepted before executeAsync returns, counted as a clean call of its task")
  void answeredInTask() throws Exception {
    Hfr hfr = f.engine();
    AsyncRead read = new AsyncRead(() -> CompletableFuture.completedFuture("hit"));
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      CompletableFuture<String> call = hfr.executeAsync(Fixtures.read("search"), read);
      assertThat(call).isCompletedWithValue("hit");
      assertThat(task.report().succeeded()).isEqualTo(1);
      assertThat(task.report().retryCount()).isZero();
    }
    assertThat(read.starts).hasValue(1);
    assertThat(cleanCalls()).isEqualTo(1);
    assertThat(f.sink.events).isEmpty();
  }

  @Test
  @DisplayName("outside a task an answered future is accepted at once, and the returned future is the engine's own")
  void answeredOutsideTask() {
    Hfr hfr = f.engine();
    CompletableFuture<String> own = CompletableFuture.completedFuture("hit");
    CompletableFuture<String> call = hfr.executeAsync(Fixtures.read("search"), new AsyncRead(() -> own));
    assertThat(call).isCompletedWithValue("hit").isNotSameAs(own);
    assertThat(cleanCalls()).isEqualTo(1);
  }

  @Test
  @DisplayName("a future that already failed is retried by the driver, as a failure answered later would be")
  void failedAtOnceIsRetried() throws Exception {
    Hfr hfr = f.engine();
    AtomicInteger n = new AtomicInteger();
    AsyncRead read = new AsyncRead(() -> n.getAndIncrement() == 0
        ? CompletableFuture.failedFuture(Fixtures.unavailable()) : CompletableFuture.completedFuture("hit"));
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      assertThat(hfr.executeAsync(Fixtures.read("search"), read).get(10, TimeUnit.SECONDS)).isEqualTo("hit");
      assertThat(task.report().retryCount()).isEqualTo(1);
    }
    assertThat(read.starts).hasValue(2);
  }

  @Test
  @DisplayName("an attempt still under way holds its bulkhead permit until its future answers")
  void pendingAttemptHoldsItsPermit() throws Exception {
    Bulkheads bulkheads = Bulkheads.builder().defaults(4, 0).build();
    Hfr hfr = f.builder().bulkheads(bulkheads).build();
    ToolDescriptor search = Fixtures.read("search");
    Bulkhead bulkhead = bulkheads.forTarget(TargetKind.TOOL, search.name());
    CompletableFuture<String> answer = new CompletableFuture<>();
    CompletableFuture<String> call = hfr.executeAsync(search, new AsyncRead(() -> answer));

    assertThat(call).isNotDone();
    assertThat(bulkhead.inUse()).isEqualTo(1);
    answer.complete("later");
    assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("later");
    assertThat(bulkhead.inUse()).isZero();
    assertThat(cleanCalls()).isEqualTo(1);
  }

  @Test
  @DisplayName("a completed stage that is not a plain CompletableFuture is read through the driver")
  void minimalStage() throws Exception {
    Hfr hfr = f.engine();
    AsyncRead read = new AsyncRead(() -> CompletableFuture.completedStage("hit"));
    assertThat(hfr.executeAsync(Fixtures.read("search"), read).get(10, TimeUnit.SECONDS)).isEqualTo("hit");
    assertThat(read.starts).hasValue(1);
  }

  @Test
  @DisplayName("a tool that returns no stage fails its call with a structured outcome naming the tool")
  void nullStage() {
    Hfr hfr = f.engine();
    CompletableFuture<String> call = hfr.executeAsync(Fixtures.read("search"), new AsyncRead(() -> null));
    assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
        .cause().isInstanceOf(ToolCallException.class)
        .rootCause().isInstanceOf(NullPointerException.class).hasMessageContaining("instead of a CompletionStage");
  }
}
