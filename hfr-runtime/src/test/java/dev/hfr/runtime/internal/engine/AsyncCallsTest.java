package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.ledger.LedgerState;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Asynchronous calls: the same recovery, run by the asynchronous driver")
class AsyncCallsTest {

  private final Fixtures f = new Fixtures();

  /** An asynchronous tool that plays a script of completed or failed stages, and records the keys it got. */
  static final class ScriptedAsyncTool extends AsyncToolInvocation<String> {
    private final Deque<CompletableFuture<String>> attempts = new ArrayDeque<>();
    final List<String> keys = Collections.synchronizedList(new ArrayList<>());

    ScriptedAsyncTool answers(String value) {
      attempts.add(CompletableFuture.completedFuture(value));
      return this;
    }

    ScriptedAsyncTool failsWith(Exception e) {
      attempts.add(CompletableFuture.failedFuture(e));
      return this;
    }

    /** An attempt that fails later, on another thread. */
    ScriptedAsyncTool failsLater(Exception e) {
      attempts.add(CompletableFuture.supplyAsync(() -> {
        throw new java.util.concurrent.CompletionException(e);
      }, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)));
      return this;
    }

    /** An attempt that completes later, on another thread. */
    ScriptedAsyncTool answersLater(String value) {
      attempts.add(CompletableFuture.supplyAsync(() -> value, CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS)));
      return this;
    }

    int attemptsMade() {
      return keys.size();
    }

    @Override
    public synchronized CompletionStage<String> start(String idempotencyKey) {
      keys.add(String.valueOf(idempotencyKey));
      return attempts.removeFirst();
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

  @Test
  @DisplayName("a failed future is retried: 503, then the answer")
  void failedFutureIsRetried() throws Exception {
    Hfr hfr = f.engine();
    ScriptedAsyncTool tool = new ScriptedAsyncTool().failsWith(Fixtures.unavailable()).answersLater("hit");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      assertThat(hfr.executeAsync(Fixtures.read("search"), tool).get(10, TimeUnit.SECONDS)).isEqualTo("hit");
      assertThat(tool.attemptsMade()).isEqualTo(2);
      assertThat(task.report().succeeded()).isEqualTo(1);
      assertThat(task.report().retryCount()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("an R1 write whose answer timed out is resent under the same key, and its one ledger record is committed")
  void idempotentWriteResentUnderItsKey() throws Exception {
    Hfr hfr = f.engine();
    ToolDescriptor pay = Fixtures.idempotentWrite();
    ScriptedAsyncTool tool = new ScriptedAsyncTool().failsWith(Fixtures.timeout()).answers("rcpt-1");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      assertThat(hfr.executeAsync(pay, tool).get(10, TimeUnit.SECONDS)).isEqualTo("rcpt-1");
      assertThat(tool.keys).hasSize(2).doesNotContain("null");
      assertThat(tool.keys.get(1)).isEqualTo(tool.keys.get(0));
      assertThat(f.ledger.find("acme", tool.keys.get(0)).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
    }
  }

  @Test
  @DisplayName("a permanent failure ends the future with the structured outcome")
  void permanentFailure() {
    Hfr hfr = f.engine();
    ScriptedAsyncTool tool = new ScriptedAsyncTool().failsWith(Fixtures.http(400, "{\"error\":\"bad request\"}"));
    CompletableFuture<String> call = hfr.executeAsync(Fixtures.read("search"), tool);
    assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).isInstanceOf(ExecutionException.class)
        .cause().isInstanceOfSatisfying(ToolCallException.class, e -> assertThat(e.outcome().attempts()).isEqualTo(1));
  }

  @Test
  @DisplayName("stages the caller chains run in the call's task")
  void completionInTask() throws Exception {
    Hfr hfr = f.engine();
    AtomicReference<Object> seen = new AtomicReference<>();
    ScriptedAsyncTool tool = new ScriptedAsyncTool().answersLater("hit");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      hfr.executeAsync(Fixtures.read("search"), tool)
          .thenAccept(hit -> seen.set(hfr.currentTask().orElse(null)))
          .get(10, TimeUnit.SECONDS);
      assertThat(seen.get()).isSameAs(task);
    }
  }

  @Test
  @DisplayName("mode OFF returns the tool's own outcome; SHADOW records what it would do and retries nothing")
  void offAndShadow() {
    Hfr hfr = f.engine();
    hfr.mode(HfrMode.OFF);
    Exception down = Fixtures.unavailable();
    ScriptedAsyncTool off = new ScriptedAsyncTool().failsWith(down);
    assertThatThrownBy(() -> hfr.executeAsync(Fixtures.read("search"), off).get(10, TimeUnit.SECONDS)).hasCause(down);
    assertThat(off.attemptsMade()).isEqualTo(1);

    hfr.mode(HfrMode.SHADOW);
    ScriptedAsyncTool shadow = new ScriptedAsyncTool().failsWith(down);
    assertThatThrownBy(() -> hfr.executeAsync(Fixtures.read("search"), shadow).get(10, TimeUnit.SECONDS)).hasCause(down);
    assertThat(shadow.attemptsMade()).isEqualTo(1);
    assertThat(f.sink.events).anyMatch(e -> "shadow".equals(e.mode()) && e.action() == Action.RETRY);
  }
}
