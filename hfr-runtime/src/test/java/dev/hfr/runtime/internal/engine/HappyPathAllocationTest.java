package dev.hfr.runtime.internal.engine;

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

  private static final int WARM_UP_CALLS = 20_000;
  private static final int MEASURED_CALLS = 50_000;

  /** Bytes this thread allocates per call of {@code search} after a warm-up (the JIT removes what it can). */
  private static long bytesPerCall(Hfr hfr, ToolDescriptor search, Echo echo) {
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int i = 0; i < WARM_UP_CALLS; i++) {
      hfr.execute(search, echo);
    }
    long tid = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(tid);
    for (int i = 0; i < MEASURED_CALLS; i++) {
      hfr.execute(search, echo);
    }
    return (threads.getThreadAllocatedBytes(tid) - before) / MEASURED_CALLS;
  }

  @Test
  @DisplayName("allocates nothing of its own per clean read outside a scope")
  void allocatesLittle() {
    Hfr hfr = new Fixtures().engine();
    long perCall = bytesPerCall(hfr, Fixtures.read("search"), new Echo());
    System.out.println("bytes allocated per clean read: " + perCall);
    // A few bytes of slack for the measurement itself (the counter is read per thread, not per call).
    assertThat(perCall).isLessThan(16);
  }

  @Test
  @DisplayName("allocates nothing of its own per clean read inside a task either")
  void allocatesNothingInATask() {
    Hfr hfr = new Fixtures().engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").limits(TaskLimits.unlimited()).build())) {
      long perCall = bytesPerCall(hfr, Fixtures.read("search"), new Echo());
      System.out.println("bytes allocated per clean read in a task: " + perCall);
      // No Call, and the outcome of a clean read is the tool's one immutable instance.
      assertThat(perCall).isLessThan(16);
      assertThat(task.lastOutcome().status()).isEqualTo(ToolOutcome.Status.SUCCESS);
      assertThat(task.report().calls()).isEqualTo(WARM_UP_CALLS + MEASURED_CALLS);
    }
  }
}
