package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.internal.context.TaskContext;
import dev.hfr.runtime.telemetry.DecisionEvent;
import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A task follows its work to other threads")
class TasksAcrossThreadsTest {

  private static final ToolDescriptor SEARCH = Fixtures.read("search");
  private static final ToolDescriptor FLAKY = Fixtures.read("flaky");

  private final Fixtures f = new Fixtures();
  private final ExecutorService pool = Executors.newFixedThreadPool(8);

  @AfterEach
  void stopPool() throws InterruptedException {
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("20 calls on a wrapped executor count in the task that handed them over")
  void wrappedExecutor() throws Exception {
    Hfr hfr = f.engine();
    ExecutorService tasks = TaskScope.wrap(pool);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
      runAll(tasks, 20, () -> hfr.execute(SEARCH, answering("hit")));
      assertThat(task.report().calls()).isEqualTo(20);
      assertThat(task.report().succeeded()).isEqualTo(20);
    }
  }

  @Test
  @DisplayName("an unwrapped pool's calls run outside the task (the thread has no task of its own)")
  void unwrappedExecutor() throws Exception {
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
      runAll(pool, 20, () -> hfr.execute(SEARCH, answering("hit")));
      assertThat(task.report().calls()).isZero();
    }
  }

  @Test
  @DisplayName("context-propagation's own executor carries the task: the accessor is registered through the ServiceLoader")
  void contextPropagationRegistry() throws Exception {
    Hfr hfr = f.engine();
    // Nothing of ours: the library's global registry, loaded from META-INF/services.
    ExecutorService tasks = ContextExecutorService.wrap(pool, () -> ContextSnapshotFactory.builder().build().captureAll());
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
      runAll(tasks, 20, () -> hfr.execute(SEARCH, answering("hit")));
      assertThat(task.report().calls()).isEqualTo(20);
    }
  }

  @Test
  @DisplayName("CompletableFuture stages on a wrapped executor stay in the task, and the pool thread keeps nothing after")
  void completableFutureChain() throws Exception {
    Hfr hfr = f.engine();
    ExecutorService one = TaskScope.wrap(Executors.newSingleThreadExecutor());
    try {
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
        String answer = CompletableFuture.supplyAsync(() -> hfr.execute(SEARCH, answering("a")), one)
            .thenApplyAsync(a -> a + hfr.execute(SEARCH, answering("b")), one)
            .thenCompose(ab -> CompletableFuture.supplyAsync(() -> ab + hfr.execute(SEARCH, answering("c")), one))
            .get(10, TimeUnit.SECONDS);
        assertThat(answer).isEqualTo("abc");
        assertThat(task.report().calls()).isEqualTo(3);
      }
      // Work submitted outside any task runs outside it, on the very thread that just served the task.
      assertThat(one.submit(() -> hfr.currentTask().isPresent()).get(10, TimeUnit.SECONDS)).isFalse();
    } finally {
      one.shutdownNow();
    }
  }

  @Test
  @DisplayName("wrap(Runnable) and wrap(Callable) capture the task current when they are wrapped")
  void wrappedWork() throws Exception {
    Hfr hfr = f.engine();
    Runnable work;
    Callable<String> query;
    TaskScope opened;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
      opened = task;
      Runnable call = () -> hfr.execute(SEARCH, answering("hit"));
      work = TaskScope.wrap(call);
      query = TaskScope.wrap(() -> hfr.execute(SEARCH, answering("hit")));
    }
    pool.submit(work).get(10, TimeUnit.SECONDS);
    pool.submit(query).get(10, TimeUnit.SECONDS);
    assertThat(opened.report().calls()).isEqualTo(2);
  }

  @Test
  @DisplayName("another engine's task is not joined")
  void otherEngine() {
    Hfr mine = f.engine();
    Hfr other = new Fixtures().engine();
    try (TaskScope task = other.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
      mine.execute(SEARCH, answering("hit"));
      assertThat(task.report().calls()).isZero();
      assertThat(mine.currentTask()).isEmpty();
      assertThat(other.currentTask()).containsSame(task);
    }
  }

  @Test
  @DisplayName("500 concurrent tasks on 64 threads and CompletableFuture chains: every call in its own task, budgets and limits exact")
  void manyTasksManyThreads() throws Exception {
    Hfr hfr = f.builder()
        .features(HfrFeatures.all().toBuilder().circuitBreaker(false).build())   // a breaker would block attempts at random
        .tenantBudgets(TenantRetryBudgets.builder(f.time).retriesPerWindow(1_000_000).build())
        .build();
    ExecutorService threads = Executors.newFixedThreadPool(64);
    ExecutorService work = TaskScope.wrap(threads);
    try {
      int taskCount = 500;
      List<TaskScope> scopes = new ArrayList<>();
      List<CompletableFuture<?>> pending = new ArrayList<>();
      for (int i = 0; i < taskCount; i++) {
        boolean budgeted = i % 2 == 0;
        TaskLimits limits = budgeted
            ? TaskLimits.builder().maxRetries(3).build()    // B_t = 3 for six failing calls
            : TaskLimits.builder().maxToolCalls(10).build(); // 15 calls, 10 admitted
        // Each task is opened here and closed at once; its work goes on concurrently with every other task's.
        try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-" + i).limits(limits).build())) {
          scopes.add(task);
          TaskScope expected = task;
          ToolInvocation<String> inTask = answering(() -> {
            // The tool runs inside the engine's call: its own task is current on this pool thread.
            assertThat(hfr.currentTask()).containsSame(expected);
            return "hit";
          });
          // A chain of three calls: async stages, a dependent stage, a composed stage.
          pending.add(CompletableFuture.supplyAsync(() -> callCounted(hfr, SEARCH, inTask), work)
              .thenApplyAsync(r -> callCounted(hfr, SEARCH, inTask), work)
              .thenApply(r -> callCounted(hfr, SEARCH, inTask)));
          int more = budgeted ? 6 : 12;
          for (int c = 0; c < more; c++) {
            ToolInvocation<String> call = budgeted ? failing() : inTask;
            ToolDescriptor tool = budgeted ? FLAKY : SEARCH;
            pending.add(CompletableFuture.runAsync(() -> callCounted(hfr, tool, call), work));
          }
        }
      }
      CompletableFuture.allOf(pending.toArray(CompletableFuture[]::new)).get(120, TimeUnit.SECONDS);

      for (int i = 0; i < taskCount; i++) {
        TaskReport r = scopes.get(i).report();
        if (i % 2 == 0) {
          assertThat(r.calls()).as("calls of %s", r.taskId()).isEqualTo(9);
          assertThat(r.succeeded()).as("succeeded of %s", r.taskId()).isEqualTo(3);
          assertThat(r.failed()).as("failed of %s", r.taskId()).isEqualTo(6);
          assertThat(r.retryCount()).as("retries of %s (B_t = 3)", r.taskId()).isEqualTo(3);
          assertThat(r.attempts()).as("attempts of %s", r.taskId()).isEqualTo(3 + 6 + 3);
          assertThat(r.budgetUsage().retries()).as("budget's retries of %s", r.taskId()).isEqualTo(3);
        } else {
          assertThat(r.calls()).as("calls of %s", r.taskId()).isEqualTo(15);
          assertThat(r.succeeded()).as("succeeded of %s", r.taskId()).isEqualTo(10);
          assertThat(r.failed()).as("refused calls of %s (max 10 tool calls)", r.taskId()).isEqualTo(5);
          assertThat(r.budgetUsage().toolCalls()).as("tool calls of %s", r.taskId()).isEqualTo(10);
        }
      }
    } finally {
      threads.shutdownNow();
      threads.awaitTermination(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @DisplayName("one task, 8 threads, 8,000 clean reads at once: the limit admits exactly 4,000, counts are exact, no step number is given twice")
  void oneTaskManyThreads() throws Exception {
    Hfr hfr = f.engine();
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "busy").limits(TaskLimits.unlimited().toBuilder()
        .maxToolCalls(4_000).build()).build())) {
      ExecutorService work = TaskScope.wrap(threads);
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        done.add(work.submit(() -> {
          go.await();
          for (int i = 0; i < 1_000; i++) {
            callCounted(hfr, SEARCH, answering("hit"));
          }
          return null;
        }));
      }
      go.countDown();
      for (Future<?> d : done) {
        d.get(60, TimeUnit.SECONDS);
      }

      TaskReport r = task.report();
      assertThat(r.calls()).isEqualTo(8_000);
      assertThat(r.succeeded()).isEqualTo(4_000);
      assertThat(r.attempts()).as("a refused call makes no attempt").isEqualTo(4_000);
      assertThat(r.failed()).as("refused by max_tool_calls").isEqualTo(4_000);
      assertThat(r.budgetUsage().toolCalls()).isEqualTo(4_000);
      List<Long> refusedSteps = f.sink.events.stream().map(DecisionEvent::step).toList();
      assertThat(refusedSteps).hasSize(4_000).doesNotHaveDuplicates().allSatisfy(step -> assertThat(step).isBetween(1L, 8_000L));
    } finally {
      threads.shutdownNow();
    }
  }

  @Test
  @DisplayName("reads and writes of one task on 8 threads and the one that opened it: each call gets a step number of its own and is counted, with limits (numbered under the limit tracker's lock) and without (atomic increments)")
  void stepNumbersAcrossThreads() throws Exception {
    for (boolean budgets : new boolean[] {true, false}) {
      Hfr hfr = f.engine(HfrFeatures.all().toBuilder().budgets(budgets).circuitBreaker(false).build());
      ExecutorService threads = Executors.newFixedThreadPool(8);
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "steps-" + budgets).limits(TaskLimits.unlimited()).build())) {
        ExecutorService work = TaskScope.wrap(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          int thread = t;
          done.add(work.submit(() -> {
            go.await();
            for (int i = 0; i < 100; i++) {
              hfr.execute(SEARCH, answering("hit"));
              if (i % 4 == 0) {
                hfr.execute(PAY, payment(thread * 1_000 + i)); // numbered on the state machine's path
              }
            }
            return null;
          }));
        }
        go.countDown();
        for (int i = 0; i < 100; i++) {
          hfr.execute(SEARCH, answering("hit")); // and the opening thread's, counted by that thread alone
        }
        for (Future<?> d : done) {
          d.get(60, TimeUnit.SECONDS);
        }

        TaskReport r = task.report();
        assertThat(r.calls()).isEqualTo(8 * 125 + 100);
        assertThat(r.succeeded()).as("every clean read counted, on the opening thread and the others").isEqualTo(8 * 125 + 100);
        assertThat(r.attempts()).isEqualTo(8 * 125 + 100);
        assertThat(TaskContext.current().nextStep()).as("budgets %s: no step given twice or lost", budgets).isEqualTo(8 * 125 + 100 + 1);
      } finally {
        threads.shutdownNow();
      }
    }
  }

  private static final ToolDescriptor PAY = Fixtures.idempotentWrite();

  /** {@code pay(amount, key)}: a write the ledger keys by its amount. */
  private static ToolInvocation<String> payment(int amount) {
    return new ToolInvocation<>() {
      @Override
      public String proceed(String idempotencyKey) {
        return "paid " + amount;
      }

      @Override
      public int argumentCount() {
        return 2;
      }

      @Override
      public Object argument(int index) {
        return index == 0 ? amount : "key-" + amount;
      }
    };
  }

  /** One call; a failure or a refusal is only counted in the task's report, which is what the test checks. */
  private static String callCounted(Hfr hfr, ToolDescriptor tool, ToolInvocation<String> call) {
    try {
      return hfr.execute(tool, call);
    } catch (ToolCallException countedInTheReport) {
      return countedInTheReport.outcome().reason();
    }
  }

  private static void runAll(ExecutorService executor, int n, Runnable call) throws Exception {
    List<CompletableFuture<Void>> calls = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      calls.add(CompletableFuture.runAsync(call, executor));
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
  }

  private static ToolInvocation<String> answering(String answer) {
    return answering(() -> answer);
  }

  private static ToolInvocation<String> answering(Callable<String> body) {
    return new ToolInvocation<>() {
      @Override
      public String proceed(String idempotencyKey) throws Exception {
        return body.call();
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return "query";
      }
    };
  }

  /** A read whose provider is always unavailable (503, T1: retryable). */
  private static ToolInvocation<String> failing() {
    return answering(() -> {
      throw Fixtures.unavailable();
    });
  }

  @Test
  @DisplayName("a failing call on a wrapped executor fails in its task")
  void failureInTask() throws Exception {
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.builder().maxRetries(0).build()).build())) {
      CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> hfr.execute(FLAKY, failing()), TaskScope.wrap(pool));
      assertThatThrownBy(() -> call.get(10, TimeUnit.SECONDS)).hasCauseInstanceOf(ToolCallException.class);
      assertThat(task.report().failed()).isEqualTo(1);
      assertThat(task.report().failedTools()).containsExactly(FLAKY.name());
    }
  }
}
