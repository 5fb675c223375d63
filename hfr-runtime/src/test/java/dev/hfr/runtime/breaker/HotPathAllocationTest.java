package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.TaskLimitTracker;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.time.VirtualTime;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The policy checks of a call that succeeds at once must not allocate: the lead benchmarks HFR's
 * overhead against Resilience4j and Failsafe. Measured with the JVM's per-thread allocation counter.
 */
@DisplayName("The hot path — a successful call through breaker, bulkhead and budget checks — allocates nothing")
class HotPathAllocationTest {

  private static final int WARMUP = 20_000;
  private static final int MEASURED = 100_000;

  private final VirtualTime time = new VirtualTime();
  private final CircuitBreakers breakers = CircuitBreakers.builder(time).build();
  private final Bulkheads bulkheads = Bulkheads.builder().build();
  private final TenantRetryBudgets tenants = TenantRetryBudgets.builder(time).build();
  private final TaskLimitTracker tracker = new TaskLimitTracker(TaskLimits.builder().maxSameToolCalls(Integer.MAX_VALUE).build(), time);
  private final Deadline deadline = Deadline.after(time, Duration.ofHours(1));
  private long sink;

  private void successfulCall(String tool, String provider) {
    CircuitBreaker toolBreaker = breakers.forTarget(TargetKind.TOOL, tool);
    CircuitBreaker providerBreaker = breakers.forTarget(TargetKind.PROVIDER, provider);
    Bulkhead bulkhead = bulkheads.forTarget(TargetKind.TOOL, tool);
    if (tracker.beforeToolCall(tool, false) != null || !deadline.allows(time.nanoTime(), 0, 1_000, 0)) {
      throw new AssertionError("limits should not be reached");
    }
    if (!toolBreaker.tryAcquire() || !providerBreaker.tryAcquire() || !bulkhead.tryAcquire()) {
      throw new AssertionError("a healthy target refused a call");
    }
    try {
      time.advance(1_000);
      sink += tenants.available("acme");
    } finally {
      bulkhead.release();
      toolBreaker.onSuccess(1_000);
      providerBreaker.onSuccess(1_000);
    }
  }

  @Test
  void successfulCallsAllocateNothing() {
    java.lang.management.ThreadMXBean bean = ManagementFactory.getThreadMXBean();
    assumeThat(bean).isInstanceOf(com.sun.management.ThreadMXBean.class);
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeThat(threads.isThreadAllocatedMemorySupported()).isTrue();
    threads.setThreadAllocatedMemoryEnabled(true);

    for (int i = 0; i < WARMUP; i++) {
      successfulCall("Orders.find", "orders-api");
    }
    long before = threads.getCurrentThreadAllocatedBytes();
    for (int i = 0; i < MEASURED; i++) {
      successfulCall("Orders.find", "orders-api");
    }
    long allocated = threads.getCurrentThreadAllocatedBytes() - before;
    // A single allocation per call would be at least 16 bytes x 100,000 calls = 1.6 MB; allow a little
    // noise from the measurement itself.
    assertThat(allocated).as("bytes allocated by %d successful calls", MEASURED).isLessThan(4_096);
    assertThat(sink).isPositive();
  }
}
