package dev.hfr.runtime.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("RetryBudget: per-step attempts and the per-task retry budget")
class RetryBudgetTest {

  @Test
  @DisplayName("a step's limit counts attempts, the first included")
  void stepLimitCountsAttempts() {
    RetryBudget.Step step = RetryBudget.perTask(100).openStep(3);
    assertThat(step.attempts()).isEqualTo(1);
    assertThat(step.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(step.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(step.tryChargeRetry()).isEqualTo(RetryBudget.Charge.STEP_EXHAUSTED);
    assertThat(step.attempts()).isEqualTo(3);
    assertThat(step.exhausted()).isTrue();
  }

  @Test
  @DisplayName("the task budget is shared by its steps; a refusal charges nothing")
  void taskBudgetIsShared() {
    RetryBudget task = RetryBudget.perTask(2);
    RetryBudget.Step a = task.openStep(4);
    RetryBudget.Step b = task.openStep(4);
    assertThat(a.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(b.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(b.tryChargeRetry()).isEqualTo(RetryBudget.Charge.TASK_EXHAUSTED);
    assertThat(b.attempts()).isEqualTo(2);
    assertThat(task.remaining()).isZero();
    assertThat(a.exhausted()).isTrue();
  }

  @Test
  @DisplayName("the reserve is kept for the final step: ordinary steps stop at B_t − reserve")
  void reserveForTheFinalStep() {
    RetryBudget task = RetryBudget.perTask(4, 2);
    RetryBudget.Step early = task.openStep(10);
    assertThat(early.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(early.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(early.tryChargeRetry()).isEqualTo(RetryBudget.Charge.TASK_EXHAUSTED);
    assertThat(early.exhausted()).isTrue();
    assertThat(early.isFinal()).isFalse();
    RetryBudget.Step last = task.openFinalStep(10);
    assertThat(last.isFinal()).isTrue();
    assertThat(last.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(last.tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
    assertThat(last.tryChargeRetry()).isEqualTo(RetryBudget.Charge.TASK_EXHAUSTED);
    assertThat(task.retriesUsed()).isEqualTo(4);
    assertThatThrownBy(() -> RetryBudget.perTask(2, 3)).hasMessageContaining("reserveForFinalStep");
  }

  @Test
  @DisplayName("a refund gives the retry back to step and task, and cannot go below the first attempt")
  void refund() {
    RetryBudget task = RetryBudget.perTask(1);
    RetryBudget.Step step = task.openStep(2);
    step.tryChargeRetry();
    step.refundRetry();
    assertThat(step.attempts()).isEqualTo(1);
    assertThat(task.remaining()).isEqualTo(1);
    assertThatThrownBy(step::refundRetry).isInstanceOf(IllegalStateException.class);
  }

  @Test
  @DisplayName("zero retries per task allows first attempts only; bad sizes are refused by name")
  void zeroAndBadSizes() {
    assertThat(RetryBudget.perTask(0).openStep(5).tryChargeRetry()).isEqualTo(RetryBudget.Charge.TASK_EXHAUSTED);
    assertThatThrownBy(() -> RetryBudget.perTask(-1)).hasMessageContaining("maxRetriesPerTask");
    assertThatThrownBy(() -> RetryBudget.perTask(1).openStep(0)).hasMessageContaining("maxAttemptsPerStep");
    assertThat(RetryBudget.unlimited().openStep(3).tryChargeRetry()).isEqualTo(RetryBudget.Charge.GRANTED);
  }

  @Test
  @DisplayName("under contention of 8 threads the task budget grants exactly B_t retries")
  void contentionNeverOverspends() throws Exception {
    RetryBudget task = RetryBudget.perTask(1_000);
    ExecutorService pool = Executors.newFixedThreadPool(8);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<Integer>> futures = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      futures.add(pool.submit(() -> {
        start.await();
        int granted = 0;
        for (int s = 0; s < 200; s++) {
          RetryBudget.Step step = task.openStep(4);
          for (int r = 0; r < 5; r++) {
            if (step.tryChargeRetry() == RetryBudget.Charge.GRANTED) {
              granted++;
            }
          }
        }
        return granted;
      }));
    }
    start.countDown();
    int total = 0;
    for (Future<Integer> f : futures) {
      total += f.get(30, TimeUnit.SECONDS);
    }
    pool.shutdown();
    assertThat(total).isEqualTo(1_000);
    assertThat(task.retriesUsed()).isEqualTo(1_000);
  }
}
