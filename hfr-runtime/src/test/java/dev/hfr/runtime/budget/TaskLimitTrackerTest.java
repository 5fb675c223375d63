package dev.hfr.runtime.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("TaskLimitTracker: the article's task limits, and budget_usage")
class TaskLimitTrackerTest {

  private final VirtualTime time = new VirtualTime();

  @Test
  @DisplayName("the same tool called more than max_same_tool_calls times in a row is a repeated action")
  void repeatedActionDetection() {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.builder().maxSameToolCalls(5).build(), time);
    for (int i = 0; i < 5; i++) {
      assertThat(tracker.beforeToolCall("Search.query", false)).isNull();
    }
    assertThat(tracker.beforeToolCall("Search.query", false)).isEqualTo(TaskLimit.SAME_TOOL_CALLS);
    assertThat(tracker.repeatedActions()).isEqualTo(1);
    assertThat(tracker.beforeToolCall("Orders.find", false)).isNull();
    assertThat(tracker.beforeToolCall("Search.query", false)).isNull();
    assertThat(tracker.usage().toolCalls()).isEqualTo(7);
  }

  @Test
  @DisplayName("turns, tool calls and write actions stop at their limits; refused ones are not counted")
  void countLimits() {
    TaskLimitTracker tracker = new TaskLimitTracker(
        TaskLimits.builder().maxTurns(2).maxToolCalls(3).maxWriteActions(1).build(), time);
    assertThat(tracker.onTurn()).isNull();
    assertThat(tracker.onTurn()).isNull();
    assertThat(tracker.onTurn()).isEqualTo(TaskLimit.TURNS);
    assertThat(tracker.beforeToolCall("Orders.create", true)).isNull();
    assertThat(tracker.beforeToolCall("Orders.cancel", true)).isEqualTo(TaskLimit.WRITE_ACTIONS);
    assertThat(tracker.beforeToolCall("Orders.find", false)).isNull();
    assertThat(tracker.beforeToolCall("Search.query", false)).isNull();
    assertThat(tracker.beforeToolCall("Search.other", false)).isEqualTo(TaskLimit.TOOL_CALLS);
    BudgetUsage usage = tracker.usage();
    assertThat(usage.turns()).isEqualTo(2);
    assertThat(usage.toolCalls()).isEqualTo(3);
    assertThat(usage.writeActions()).isEqualTo(1);
  }

  @Test
  @DisplayName("checks at a recent reading: the tracker reads its clock itself every 16th, so a stale reading delays the wall-time limit by 15 calls at most")
  void wallTimeAtRecentReadings() {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.builder().maxWallTime(Duration.ofSeconds(10))
        .maxSameToolCalls(Integer.MAX_VALUE).build(), time);
    long stale = time.nanoTime();
    time.advance(Duration.ofSeconds(11).toNanos());
    for (int i = 1; i < TaskLimitTracker.EXACT_READING_EVERY; i++) {
      assertThat(tracker.beforeToolCallAtRecentReading("Cache.get", false, stale)).as("check %d", i).isNull();
    }
    assertThat(tracker.beforeToolCallAtRecentReading("Cache.get", false, stale)).isEqualTo(TaskLimit.WALL_TIME);
    assertThat(tracker.beforeToolCall("Cache.get", false, stale)).as("an exact reading is taken as it is").isNull();
    assertThat(tracker.beforeToolCall("Cache.get", false)).isEqualTo(TaskLimit.WALL_TIME);
    assertThat(tracker.usage().toolCalls()).isEqualTo(16);
  }

  @Test
  @DisplayName("a caller holding the tracker's lock checks at an exact or a recent reading, as the locking methods do")
  void checksHoldingTheLock() {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.builder().maxWallTime(Duration.ofSeconds(10))
        .maxToolCalls(20).maxSameToolCalls(Integer.MAX_VALUE).build(), time);
    long stale = time.nanoTime();
    time.advance(Duration.ofSeconds(11).toNanos());
    tracker.lock();
    try {
      for (int i = 1; i < TaskLimitTracker.EXACT_READING_EVERY; i++) {
        assertThat(tracker.beforeToolCallHoldingLock("Cache.get", false, stale, false)).as("check %d", i).isNull();
      }
      assertThat(tracker.beforeToolCallHoldingLock("Cache.get", false, stale, false))
          .as("the 16th check at a recent reading reads the clock").isEqualTo(TaskLimit.WALL_TIME);
      assertThat(tracker.beforeToolCallHoldingLock("Cache.get", false, stale, true)).as("an exact reading is taken as it is").isNull();
    } finally {
      tracker.unlock();
    }
    assertThat(tracker.usage().toolCalls()).isEqualTo(16);
  }

  @Test
  @DisplayName("checking without holding the lock is a programming error (caught by assertions)")
  void holdingLockIsChecked() {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.defaults(), time);
    assertThatThrownBy(() -> tracker.beforeToolCallHoldingLock("Cache.get", false, time.nanoTime(), true))
        .isInstanceOf(AssertionError.class).hasMessageContaining("lock");
  }

  @Test
  @DisplayName("8 threads checking one tracker at once (the lock's contended path): max_tool_calls admits exactly its number, cost adds up exactly")
  void contendedLock() throws Exception {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.builder().maxToolCalls(20_000)
        .maxSameToolCalls(Integer.MAX_VALUE).build(), time);
    int threads = 8;
    int each = 5_000;
    AtomicInteger admitted = new AtomicInteger();
    CountDownLatch go = new CountDownLatch(1);
    List<Thread> workers = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      String tool = "Tool" + (t % 3);
      Thread w = new Thread(() -> {
        try {
          go.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        for (int i = 0; i < each; i++) {
          if (tracker.beforeToolCall(tool, false) == null) {
            admitted.incrementAndGet();
          }
          tracker.recordCost(0.5);
        }
      });
      w.start();
      workers.add(w);
    }
    go.countDown();
    for (Thread w : workers) {
      w.join(60_000);
      assertThat(w.isAlive()).isFalse();
    }
    assertThat(admitted.get()).isEqualTo(20_000);
    assertThat(tracker.usage().toolCalls()).isEqualTo(20_000);
    assertThat(tracker.usage().cost()).isEqualTo(threads * each * 0.5);
  }

  @Test
  @DisplayName("the retry budget B_t is created when a retry first asks for it")
  void retryBudgetOnFirstNeed() {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.builder().maxRetries(3).build(), time);
    assertThat(tracker.retryBudgetIfOpened()).isNull();
    assertThat(tracker.usage().retries()).isZero();
    RetryBudget budget = tracker.retryBudget();
    assertThat(tracker.retryBudget()).isSameAs(budget);
    assertThat(tracker.retryBudgetIfOpened()).isSameAs(budget);
    assertThat(budget.maxRetriesPerTask()).isEqualTo(3);
  }

  @Test
  @DisplayName("wall time and cost are checked on the injected clock")
  void wallTimeAndCost() {
    TaskLimitTracker tracker = new TaskLimitTracker(
        TaskLimits.builder().maxWallTime(Duration.ofSeconds(10)).maxCost(1.0).build(), time);
    tracker.recordCost(0.4);
    assertThat(tracker.check()).isNull();
    time.advance(Duration.ofSeconds(11).toNanos());
    assertThat(tracker.beforeToolCall("x", false)).isEqualTo(TaskLimit.WALL_TIME);

    TaskLimitTracker spender = new TaskLimitTracker(TaskLimits.builder().maxCost(1.0).build(), time);
    spender.recordCost(0.6);
    spender.recordCost(0.4);
    assertThat(spender.onTurn()).isEqualTo(TaskLimit.COST);
    assertThatThrownBy(() -> spender.recordCost(-1)).hasMessageContaining("cost");
  }

  @Test
  @DisplayName("the tracker owns the task's retry budget, and usage reports it with every limit")
  void usageReport() {
    TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.defaults().toBuilder().maxTurns(20).build(), time);
    RetryBudget.Step step = tracker.retryBudget().openStep(4);
    step.tryChargeRetry();
    tracker.onTurn();
    tracker.beforeToolCall("Orders.find", false);
    time.advance(Duration.ofMillis(1_500).toNanos());
    Map<String, Number> map = tracker.usage().toMap();
    assertThat(map)
        .containsEntry("turns", 1)
        .containsEntry("turns_limit", 20)
        .containsEntry("tool_calls", 1)
        .containsEntry("retries", 1)
        .containsEntry("retries_limit", 10)
        .containsEntry("wall_time_ms", 1_500L)
        .containsEntry("repeated_actions", 0)
        .doesNotContainKey("tool_calls_limit")
        .doesNotContainKey("cost_limit");
  }

  @Test
  @DisplayName("the builder names the bad limit")
  void builderChecks() {
    assertThatThrownBy(() -> TaskLimits.builder().maxTurns(0)).hasMessageContaining("maxTurns");
    assertThatThrownBy(() -> TaskLimits.builder().maxSameToolCalls(0)).hasMessageContaining("maxSameToolCalls");
    assertThatThrownBy(() -> TaskLimits.builder().maxRetries(-1)).hasMessageContaining("maxRetries");
    assertThatThrownBy(() -> TaskLimits.builder().maxWallTime(Duration.ZERO)).hasMessageContaining("maxWallTime");
    assertThatThrownBy(() -> TaskLimits.builder().maxCost(Double.NaN)).hasMessageContaining("maxCost");
    assertThatThrownBy(() -> TaskLimits.builder().maxRetries(2).retryReserveForFinalStep(3).build())
        .hasMessageContaining("retryReserveForFinalStep");
    assertThat(TaskLimits.defaults().maxRetries()).isEqualTo(10);
    TaskLimitTracker reserving = new TaskLimitTracker(TaskLimits.builder().maxRetries(3).retryReserveForFinalStep(1).build(), time);
    assertThat(reserving.retryBudget().reserveForFinalStep()).isEqualTo(1);
    assertThat(TaskLimits.unlimited().maxTurns()).isEqualTo(TaskLimits.UNLIMITED);
  }
}
