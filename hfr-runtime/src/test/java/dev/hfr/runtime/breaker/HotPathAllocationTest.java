package dev.hfr.runtime.breaker;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

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
  private static final int MEASURED = 20_000;
  private static final int ROUNDS = 5;

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
    assumeTrue(bean instanceof com.sun.management.ThreadMXBean, "needs the HotSpot ThreadMXBean");
    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) bean;
    assumeTrue(threads.isThreadAllocatedMemorySupported(), "needs per-thread allocation counting");
    threads.setThreadAllocatedMemoryEnabled(true);

    for (int i = 0; i < WARMUP; i++) {
      successfulCall("Orders.find", "orders-api");
    }
    // Several rounds, keeping the smallest: one-off allocations of the JVM itself (class loading, a
    // deoptimisation) may land in any round, an allocation per call lands in every one.
    long fewest = Long.MAX_VALUE;
    for (int round = 0; round < ROUNDS; round++) {
      long before = threads.getCurrentThreadAllocatedBytes();
      for (int i = 0; i < MEASURED; i++) {
        successfulCall("Orders.find", "orders-api");
      }
      fewest = Math.min(fewest, threads.getCurrentThreadAllocatedBytes() - before);
    }
    // A single allocation per call would be at least 16 bytes x 20,000 calls = 320 KB.
    assertThat(fewest).as("bytes allocated by %d successful calls", MEASURED).isLessThan(1_024);
    assertThat(sink).isPositive();
  }
}
