package dev.hfr.runtime.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.TaskLimits;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The clean path is cheap: a clean read outside a scope runs inline without a call object or a task, so
 * the engine allocates nothing of its own (measured with the JVM's allocation counter).
 */
@DisplayName("The happy path")
class HappyPathAllocationTest {

  /** A reusable invocation, so the measurement counts the engine's allocations, not the test's. */
  static final class Echo extends ToolInvocation<String> {
    @Override
    public String proceed(String key) {
      return "hit";
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return "q";
    }
  }

  @Test
  @DisplayName("allocates nothing of its own per clean read outside a scope")
  void allocatesLittle() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");
    Echo echo = new Echo();
    for (int i = 0; i < 20_000; i++) {
      hfr.execute(search, echo);
    }
    int n = 50_000;
    long tid = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(tid);
    for (int i = 0; i < n; i++) {
      hfr.execute(search, echo);
    }
    long perCall = (threads.getThreadAllocatedBytes(tid) - before) / n;
    System.out.println("bytes allocated per clean read: " + perCall);
    // A few bytes of slack for the measurement itself (the counter is read per thread, not per call).
    assertThat(perCall).isLessThan(16);
  }

  @Test
  @DisplayName("allocates only the call's outcome per clean read inside a task")
  void allocatesOnlyTheOutcomeInATask() {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");
    Echo echo = new Echo();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").limits(TaskLimits.unlimited()).build())) {
      for (int i = 0; i < 20_000; i++) {
        hfr.execute(search, echo);
      }
      int n = 50_000;
      long tid = Thread.currentThread().getId();
      long before = threads.getThreadAllocatedBytes(tid);
      for (int i = 0; i < n; i++) {
        hfr.execute(search, echo);
      }
      long perCall = (threads.getThreadAllocatedBytes(tid) - before) / n;
      System.out.println("bytes allocated per clean read in a task: " + perCall);
      // The ToolOutcome that TaskScope.lastOutcome() returns (about 48 B); no Call, no boxing.
      assertThat(perCall).isLessThan(80);
      assertThat(task.lastOutcome().status()).isEqualTo(ToolOutcome.Status.SUCCESS);
      assertThat(task.report().calls()).isEqualTo(70_000);
    }
  }
}
