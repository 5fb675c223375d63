package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.AsyncToolInvocation;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.internal.context.TaskContext;
import io.micrometer.context.ContextExecutorService;
import io.micrometer.context.ContextSnapshotFactory;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A task closed on another thread lets go of the thread that opened it, whatever that thread ran in the task in
 * between: work wrapped in the task and run on the opening thread itself, a binding by hand, an asynchronous call's
 * steps. Each of those binds a task for a while and then puts back the one before, and must put it back as it was
 * bound (by its own open), not as handed over.
 */
@DisplayName("A task closed on another thread lets go of its opening thread after work run inline there")
class ClosedElsewhereTest {

  private final Fixtures f = new Fixtures();
  private final Hfr hfr = f.engine();
  private final ExecutorService closer = Executors.newSingleThreadExecutor();
  private final ExecutorService pool = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopThreads() throws InterruptedException {
    closer.shutdownNow();
    pool.shutdownNow();
    pool.awaitTermination(10, TimeUnit.SECONDS);
    TaskContext.set(null);
  }

  /** One clean read through the engine, in whatever task the calling thread works for. */
  private void read() {
    hfr.execute(Fixtures.read("lookup"), new CallTimingTest.Lookup(f.time, 1));
  }

  private static TaskSpec spec(String id) {
    return TaskSpec.builder("acme", id).limits(TaskLimits.unlimited()).build();
  }

  private void closeOnAnotherThread(TaskScope scope) throws Exception {
    closer.submit(scope::close).get(10, TimeUnit.SECONDS);
  }

  /** A way a user's code runs work wrapped in the current task on the calling thread itself. */
  @FunctionalInterface
  interface InlineRunner {
    void runHere(Runnable work) throws Exception;
  }

  static Stream<Arguments> inlineRunners() {
    return Stream.of(
        Arguments.of("TaskScope.wrap(Runnable).run()", (InlineRunner) work -> TaskScope.wrap(work).run()),
        Arguments.of("TaskScope.wrap(Callable).call()", (InlineRunner) work -> TaskScope.wrap(() -> {
          work.run();
          return null;
        }).call()),
        Arguments.of("a wrapped direct executor", (InlineRunner) work -> TaskScope.wrap((Executor) Runnable::run).execute(work)),
        Arguments.of("a wrapped pool whose CallerRunsPolicy runs it on the caller", (InlineRunner) ClosedElsewhereTest::callerRuns),
        Arguments.of("a CompletableFuture stage completed on the opening thread", (InlineRunner) work -> {
          CompletableFuture<Void> gate = new CompletableFuture<>();
          CompletableFuture<Void> stage = gate.thenRun(TaskScope.wrap(work));
          gate.complete(null); // the dependent stage runs here, on the completing thread
          stage.get(10, TimeUnit.SECONDS);
        }),
        Arguments.of("context-propagation's global registry (as Spring's ContextPropagatingTaskDecorator)",
            (InlineRunner) work -> ContextSnapshotFactory.builder().build().captureAll().wrap(work).run()));
  }

  /** A one-thread pool, its thread busy and no queue: the wrapped pool's submit is rejected and run by the caller. */
  private static void callerRuns(Runnable work) throws Exception {
    ThreadPoolExecutor full = new ThreadPoolExecutor(1, 1, 0, TimeUnit.SECONDS, new SynchronousQueue<>(),
        new ThreadPoolExecutor.CallerRunsPolicy());
    CountDownLatch release = new CountDownLatch(1);
    try {
      full.execute(() -> {
        try {
          release.await();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
      });
      Thread caller = Thread.currentThread();
      Future<?> done = TaskScope.wrap((ExecutorService) full).submit(() -> {
        assertThat(Thread.currentThread()).as("run by the caller").isSameAs(caller);
        work.run();
      });
      done.get(10, TimeUnit.SECONDS);
    } finally {
      release.countDown();
      full.shutdown();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inlineRunners")
  @DisplayName("wrapped work run inline on the opening thread, then the scope closed elsewhere: the next call joins no task")
  void inlineWorkThenClosedElsewhere(String how, InlineRunner runner) throws Exception {
    TaskScope task = hfr.openTask(spec("inline"));
    read();
    runner.runHere(() -> {
      assertThat(hfr.currentTask()).as("the wrapped work runs in the task").containsSame(task);
      read();
    });
    assertThat(hfr.currentTask()).containsSame(task);
    closeOnAnotherThread(task);
    read();
    assertThat(hfr.currentTask()).as("after %s, the opening thread let go of the closed task", how).isEmpty();
    assertThat(task.report().calls()).as("the call before, the inline work's; not the call after the close").isEqualTo(2);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("inlineRunners")
  @DisplayName("nested scopes: wrapped work run inline in the inner one, the inner closed elsewhere: the next call joins the outer")
  void nestedInlineWorkThenClosedElsewhere(String how, InlineRunner runner) throws Exception {
    TaskScope outer = hfr.openTask(spec("outer"));
    TaskScope inner = hfr.openTask(spec("inner"));
    runner.runHere(this::read);
    closeOnAnotherThread(inner);
    read();
    assertThat(hfr.currentTask()).as("after %s, the outer scope again", how).containsSame(outer);
    assertThat(inner.report().calls()).isEqualTo(1);
    assertThat(outer.report().calls()).isEqualTo(1);

    runner.runHere(this::read); // now in the outer task, which is let go of in turn
    closeOnAnotherThread(outer);
    read();
    assertThat(hfr.currentTask()).isEmpty();
    assertThat(outer.report().calls()).isEqualTo(2);
  }

  @Test
  @DisplayName("another task bound by hand on the opening thread and unbound: a close elsewhere still lets go of it")
  void otherTaskBoundByHandThenClosedElsewhere() throws Exception {
    TaskScope task = hfr.openTask(spec("own"));
    TaskScope shared = hfr.newTask(spec("shared"));
    try (AutoCloseable bound = shared.bindCurrentThread()) {
      read();
    }
    assertThat(hfr.currentTask()).containsSame(task);
    closeOnAnotherThread(task);
    read();
    assertThat(hfr.currentTask()).isEmpty();
    assertThat(task.report().calls()).isZero();
    assertThat(shared.report().calls()).isEqualTo(1);
    shared.close();
  }

  @Test
  @DisplayName("the task itself bound by hand on its opening thread and unbound: a close elsewhere still lets go of it")
  void sameTaskBoundByHandThenClosedElsewhere() throws Exception {
    TaskScope before = hfr.openTask(spec("before"));
    TaskScope task = hfr.openTask(spec("own"));
    try (AutoCloseable bound = task.bindCurrentThread()) {
      read();
    }
    closeOnAnotherThread(task);
    read();
    assertThat(hfr.currentTask()).containsSame(before);
    assertThat(task.report().calls()).isEqualTo(1);
    assertThat(before.report().calls()).isEqualTo(1);
    before.close();
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("a scope closed on its own thread while another task is bound there by hand is let go of when the binding ends")
  void closedHereDuringABinding() throws Exception {
    TaskScope task = hfr.openTask(spec("own"));
    TaskScope shared = hfr.newTask(spec("shared"));
    AutoCloseable bound = shared.bindCurrentThread();
    task.close();
    assertThat(hfr.currentTask()).as("the binding goes on").containsSame(shared);
    bound.close();
    read();
    assertThat(hfr.currentTask()).isEmpty();
    assertThat(task.report().calls()).isZero();
    shared.close();
  }

  @Test
  @DisplayName("a thread that closes a task bound to it by hand joins no task until its binding ends, not the task open before on the opening thread")
  void closedOnABoundThread() throws Exception {
    TaskScope outer = hfr.openTask(spec("outer"));
    TaskScope task = hfr.openTask(spec("inner"));
    TaskScope mine = hfr.newTask(spec("the closing thread's own"));
    closer.submit(() -> {
      try (AutoCloseable own = mine.bindCurrentThread()) {
        try (AutoCloseable bound = task.bindCurrentThread()) {
          task.close();
          assertThat(hfr.currentTask()).as("not the opening thread's outer task").isEmpty();
          read();
        }
        assertThat(hfr.currentTask()).as("its own binding back").containsSame(mine);
      }
      return null;
    }).get(10, TimeUnit.SECONDS);
    assertThat(outer.report().calls()).isZero();
    assertThat(hfr.currentTask()).containsSame(outer);
    outer.close();
    mine.close();
  }

  @Test
  @DisplayName("an asynchronous call of another task whose attempt the opening thread completes: a close elsewhere still lets go of it")
  void asyncStepsRunOnTheOpeningThread() throws Exception {
    TaskScope task = hfr.openTask(spec("own"));
    TaskScope other = hfr.newTask(spec("other"));
    CompletableFuture<String> attempt = new CompletableFuture<>();
    // The call is made in the other task, on a pool thread; its attempt is still running when the call returns.
    CompletableFuture<String> call = pool.submit(() -> {
      try (AutoCloseable bound = other.bindCurrentThread()) {
        return hfr.executeAsync(Fixtures.read("lookup"), answeredBy(attempt));
      }
    }).get(10, TimeUnit.SECONDS);
    Thread opening = Thread.currentThread();
    CompletableFuture<Thread> stepsRanOn = call.thenApply(r -> Thread.currentThread());
    attempt.complete("hit"); // the call's next steps run here, in the other task, and give this thread its own back
    assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("hit");
    assertThat(stepsRanOn.get(10, TimeUnit.SECONDS)).isSameAs(opening);
    assertThat(other.report().calls()).isEqualTo(1);
    assertThat(hfr.currentTask()).containsSame(task);
    closeOnAnotherThread(task);
    read();
    assertThat(hfr.currentTask()).isEmpty();
    assertThat(task.report().calls()).isZero();
    other.close();
  }

  private static AsyncToolInvocation<String> answeredBy(CompletableFuture<String> attempt) {
    return new AsyncToolInvocation<>() {
      @Override
      public CompletionStage<String> start(String idempotencyKey) {
        return attempt;
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return "sku-1";
      }
    };
  }

  static Stream<Arguments> handovers() {
    return Stream.of(
        Arguments.of("TaskScope.wrap(ExecutorService)", (Handover) (pool, work) -> TaskScope.wrap(pool).submit(work)),
        Arguments.of("TaskScope.wrap(Runnable) given to a plain pool", (Handover) (pool, work) -> pool.submit(TaskScope.wrap(work))),
        Arguments.of("context-propagation's global registry", (Handover) (pool, work) -> ContextExecutorService.wrap(pool,
            () -> ContextSnapshotFactory.builder().build().captureAll()).submit(work)));
  }

  /** A way a user's code hands work over to a pool in the current task. */
  @FunctionalInterface
  interface Handover {
    Future<?> handOver(ExecutorService pool, Runnable work);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("handovers")
  @DisplayName("work the opening thread hands over after a close elsewhere, before any call of its own, runs in the task open before there")
  void handedOverAfterTheClose(String how, Handover handover) throws Exception {
    TaskScope outer = hfr.openTask(spec("outer"));
    TaskScope inner = hfr.openTask(spec("inner"));
    closeOnAnotherThread(inner);
    handover.handOver(pool, () -> {
      assertThat(hfr.currentTask()).as("%s: the outer task, as this thread's next call would join", how).containsSame(outer);
      read();
    }).get(10, TimeUnit.SECONDS);
    assertThat(hfr.currentTask()).containsSame(outer);
    assertThat(inner.report().calls()).isZero();
    assertThat(outer.report().calls()).isEqualTo(1);

    closeOnAnotherThread(outer);
    handover.handOver(pool, () -> {
      assertThat(hfr.currentTask()).as("%s: no task", how).isEmpty();
      read();
    }).get(10, TimeUnit.SECONDS);
    assertThat(outer.report().calls()).isEqualTo(1);
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("work handed over to other threads still finishes in its task after a close elsewhere, and counts in its report")
  void handedOverWorkFinishesInItsTask() throws Exception {
    TaskScope task = hfr.openTask(spec("handed-over"));
    CountDownLatch closed = new CountDownLatch(1);
    ExecutorService work = TaskScope.wrap(pool);
    List<Future<Boolean>> pieces = List.of(
        work.submit(() -> {
          closed.await();
          read();
          return hfr.currentTask().filter(t -> t == task).isPresent();
        }),
        work.submit(() -> {
          closed.await();
          try (AutoCloseable bound = task.bindCurrentThread()) {
            read();
            return hfr.currentTask().filter(t -> t == task).isPresent();
          }
        }));
    TaskScope.wrap(this::read).run(); // inline work on the opening thread too
    closeOnAnotherThread(task);
    closed.countDown();
    for (Future<Boolean> piece : pieces) {
      assertThat(piece.get(10, TimeUnit.SECONDS)).as("still in the closed task on its pool thread").isTrue();
    }
    read();
    assertThat(hfr.currentTask()).isEmpty();
    assertThat(task.report().calls()).as("the inline work's and the two pieces'; not the opening thread's after").isEqualTo(3);
    assertThat(pool.submit(() -> hfr.currentTask().isPresent()).get(10, TimeUnit.SECONDS))
        .as("a pool thread keeps no task after its work").isFalse();
  }
}
