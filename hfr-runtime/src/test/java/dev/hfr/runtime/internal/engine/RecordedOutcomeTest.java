package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolOutcome;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A call the engine did not run — a model call an adapter protected — can be counted in its task, so the
 * task's report tells the whole story of the task; the adapter finds the task with {@code currentTask()}.
 */
@DisplayName("Outcomes recorded from outside the engine")
class RecordedOutcomeTest {

  private static ToolOutcome modelEscalated() {
    return new ToolOutcome("model:gpt-4o", ToolOutcome.Status.ESCALATED, Fault.T8, false, false, List.of(), false,
        false, DegradeLevel.L0, 1, "policy_refusal");
  }

  @Test
  @DisplayName("count in the task's report beside the engine's own calls, and become its last outcome")
  void countInTheReport() {
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").build())) {
      assertThat(hfr.execute(Fixtures.read("search"), new ScriptedTool<String>("q").returns("hits"))).isEqualTo("hits");
      task.recordOutcome(new ToolOutcome("model:gpt-4o", ToolOutcome.Status.SUCCESS, null, false, false, List.of(),
          false, true, DegradeLevel.L2, 3, "ok"));
      task.recordOutcome(modelEscalated());

      TaskReport report = task.report();
      assertThat(report.calls()).isEqualTo(3);
      assertThat(report.succeeded()).isEqualTo(2);
      assertThat(report.escalated()).isEqualTo(1);
      assertThat(report.degraded()).isEqualTo(1);
      assertThat(report.attempts()).isEqualTo(1 + 3 + 1);
      assertThat(report.retryCount()).isEqualTo(2);
      assertThat(task.lastOutcome()).isEqualTo(modelEscalated());
    }
  }

  @Test
  @DisplayName("refuse a missing outcome by name")
  void refuseNull() {
    Hfr hfr = new Fixtures().engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-2").build())) {
      assertThatThrownBy(() -> task.recordOutcome(null)).isInstanceOf(NullPointerException.class).hasMessage("outcome");
      assertThat(task.report().calls()).isZero();
    }
  }

  @Test
  @DisplayName("find the task open on the calling thread: the innermost one, then the one before, then none")
  void currentTask() throws Exception {
    Hfr hfr = new Fixtures().engine();
    assertThat(hfr.currentTask()).isEmpty();
    try (TaskScope outer = hfr.openTask(TaskSpec.builder("acme", "outer").build())) {
      assertThat(hfr.currentTask()).containsSame(outer);
      try (TaskScope inner = hfr.openTask(TaskSpec.builder("acme", "inner").build())) {
        assertThat(hfr.currentTask()).containsSame(inner);
      }
      assertThat(hfr.currentTask()).containsSame(outer);

      // Another thread sees no task until it binds this one.
      Thread other = new Thread(() -> {
        assertThat(hfr.currentTask()).isEmpty();
        AutoCloseable bound = outer.bindCurrentThread();
        assertThat(hfr.currentTask()).containsSame(outer);
        try {
          bound.close();
        } catch (Exception e) {
          throw new AssertionError(e);
        }
        assertThat(hfr.currentTask()).isEmpty();
      });
      AtomicReference<Throwable> failure = new AtomicReference<>();
      other.setUncaughtExceptionHandler((t, e) -> failure.set(e));
      other.start();
      other.join();
      assertThat(failure.get()).isNull();
    }
    assertThat(hfr.currentTask()).isEmpty();
  }
}
