package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.internal.context.TaskContext;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Which task a thread works for as scopes open and close (the scope keeps its thread's slot)")
class TaskBindingTest {

  private final Fixtures f = new Fixtures();
  private final Hfr hfr = f.engine();

  @Test
  @DisplayName("closing a nested scope gives its thread back the scope that was open before, and closing that one leaves none")
  void nestedScopes() {
    try (TaskScope outer = hfr.openTask(TaskSpec.builder("acme", "outer").build())) {
      try (TaskScope inner = hfr.openTask(TaskSpec.builder("acme", "inner").build())) {
        assertThat(hfr.currentTask()).containsSame(inner);
      }
      assertThat(hfr.currentTask()).containsSame(outer);
    }
    assertThat(hfr.currentTask()).isEmpty();
  }

  /** One clean read through the engine, in whatever task the calling thread works for. */
  private void read() {
    hfr.execute(Fixtures.read("lookup"), new CallTimingTest.Lookup(f.time, 1));
  }

  @Test
  @DisplayName("a scope closed on another thread ends the task there, and the opening thread never joins it again: its next call runs outside any task")
  void closedOnAnotherThread() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      TaskScope task = hfr.openTask(TaskSpec.builder("acme", "handed-over").build());
      read();
      Optional<TaskScope> afterCloseThere = other.submit(() -> {
        try (AutoCloseable bound = task.bindCurrentThread()) {
          assertThat(hfr.currentTask()).containsSame(task);
          task.close();
          return hfr.currentTask();
        }
      }).get(10, TimeUnit.SECONDS);
      assertThat(afterCloseThere).as("unbound where it was closed").isEmpty();
      assertThat(hfr.currentTask()).as("the closed task is not the opening thread's any more").isEmpty();
      assertThat(TaskContext.current()).as("its slot was given back the task open before: none").isNull();
      read();
      assertThat(task.report().calls()).as("the call after the close did not join the closed task").isEqualTo(1);
      task.close(); // idempotent: a second close changes nothing
      assertThat(hfr.currentTask()).isEmpty();
    } finally {
      other.shutdownNow();
      TaskContext.set(null);
    }
  }

  @Test
  @DisplayName("an inner scope closed on another thread gives the opening thread the outer scope back, as closing it there would")
  void innerClosedOnAnotherThread() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try (TaskScope outer = hfr.openTask(TaskSpec.builder("acme", "outer").build())) {
      TaskScope inner = hfr.openTask(TaskSpec.builder("acme", "inner").build());
      other.submit(inner::close).get(10, TimeUnit.SECONDS);
      read();
      assertThat(hfr.currentTask()).containsSame(outer);
      assertThat(outer.report().calls()).isEqualTo(1);
      assertThat(inner.report().calls()).isZero();
    } finally {
      other.shutdownNow();
    }
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("a thread bound by hand to a task closed elsewhere keeps joining it until its binding ends (handed-over work finishes in its task), then has its own task back")
  void boundThreadAfterClose() throws Exception {
    try (TaskScope own = hfr.openTask(TaskSpec.builder("acme", "own").build())) {
      TaskScope shared = hfr.newTask(TaskSpec.builder("acme", "shared").build());
      AutoCloseable bound = shared.bindCurrentThread();
      read();
      Thread closer = new Thread(shared::close);
      closer.start();
      closer.join(10_000);
      read();
      assertThat(hfr.currentTask()).containsSame(shared);
      assertThat(shared.report().calls()).isEqualTo(2);
      bound.close();
      assertThat(hfr.currentTask()).containsSame(own);
      read();
      assertThat(own.report().calls()).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("work wrapped in a task and run on the opening thread after the close still joins it: only the open's own binding ends")
  void wrappedWorkOnTheOpeningThreadAfterClose() {
    TaskScope task = hfr.openTask(TaskSpec.builder("acme", "later").build());
    Runnable later = TaskScope.wrap(this::read);
    task.close();
    later.run();
    assertThat(task.report().calls()).isEqualTo(1);
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("a task opened bound to no thread (newTask) is bound and unbound by hand, and its close unbinds it where it is closed")
  void unboundTask() throws Exception {
    try (TaskScope task = hfr.newTask(TaskSpec.builder("acme", "conversation").build())) {
      assertThat(hfr.currentTask()).isEmpty();
      try (AutoCloseable bound = task.bindCurrentThread()) {
        assertThat(hfr.currentTask()).containsSame(task);
      }
      assertThat(hfr.currentTask()).isEmpty();
      AutoCloseable bound = task.bindCurrentThread();
      task.close();
      assertThat(hfr.currentTask()).isEmpty();
      bound.close();
    }
    assertThat(hfr.currentTask()).isEmpty();
  }

  @Test
  @DisplayName("a thread's bindings stay what the scopes made them across many opens, binds and closes, on the opening thread and on another")
  void bindingsAcrossHolderMoves() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    // Unlimited: the same tool 200 times in a row is no repeated action here.
    try (TaskScope outer = hfr.openTask(TaskSpec.builder("acme", "outer").limits(TaskLimits.unlimited()).build())) {
      TaskScope shared = hfr.newTask(TaskSpec.builder("acme", "shared").limits(TaskLimits.unlimited()).build());
      // 200 rounds of six binding changes each: the open, a binding by hand and its end, wrapped work run here and
      // its end, and the close, here or (every seventh round) on another thread. What was bound by hand or wrapped on the opening thread is put back as
      // bound by its open, so a close elsewhere still lets go of the thread.
      int sharedCalls = 0;
      for (int round = 0; round < 200; round++) {
        TaskScope inner = hfr.openTask(TaskSpec.builder("acme", "inner-" + round).build());
        read();
        assertThat(hfr.currentTask()).containsSame(inner);
        try (AutoCloseable bound = shared.bindCurrentThread()) {
          read();
          sharedCalls++;
          assertThat(hfr.currentTask()).containsSame(shared);
        }
        TaskScope.wrap(this::read).run();
        assertThat(hfr.currentTask()).containsSame(inner);
        if (round % 7 == 0) {
          other.submit(inner::close).get(10, TimeUnit.SECONDS);
        } else {
          inner.close();
        }
        read();
        assertThat(hfr.currentTask()).as("round %d", round).containsSame(outer);
        assertThat(inner.report().calls()).as("round %d", round).isEqualTo(2);
      }
      assertThat(shared.report().calls()).isEqualTo(sharedCalls);
      assertThat(outer.report().calls()).isEqualTo(200);
      shared.close();
    } finally {
      other.shutdownNow();
      TaskContext.set(null);
    }
    assertThat(hfr.currentTask()).isEmpty();
  }
}
