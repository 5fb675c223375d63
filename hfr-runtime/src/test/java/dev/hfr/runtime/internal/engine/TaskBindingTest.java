package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
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

  @Test
  @DisplayName("a scope closed on another thread ends the task there and leaves the opening thread's slot as it is")
  void closedOnAnotherThread() throws Exception {
    ExecutorService other = Executors.newSingleThreadExecutor();
    try {
      TaskScope task = hfr.openTask(TaskSpec.builder("acme", "handed-over").build());
      Optional<TaskScope> afterCloseThere = other.submit(() -> {
        try (AutoCloseable bound = task.bindCurrentThread()) {
          assertThat(hfr.currentTask()).containsSame(task);
          task.close();
          return hfr.currentTask();
        }
      }).get(10, TimeUnit.SECONDS);
      assertThat(afterCloseThere).as("unbound where it was closed").isEmpty();
      assertThat(hfr.currentTask()).as("the opening thread's slot is not written from the other thread").containsSame(task);
      task.close(); // idempotent: a second close changes nothing
      assertThat(hfr.currentTask()).containsSame(task);
    } finally {
      other.shutdownNow();
      dev.hfr.runtime.internal.context.TaskContext.set(null);
    }
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
}
