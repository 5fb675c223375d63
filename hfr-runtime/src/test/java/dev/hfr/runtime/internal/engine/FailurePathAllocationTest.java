package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.lang.management.ManagementFactory;
import java.net.ConnectException;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The failure path is cheap too: a read outside a scope that fails once and then answers, with nobody taking
 * decision events, allocates its {@code Call} and nothing else of the engine's own: no one-call task, no step
 * history, no budget counter, no decision event (measured with the JVM's allocation counter).
 */
@DisplayName("A read that fails once and then answers")
class FailurePathAllocationTest {

  /** Fails every other call with one stackless refusal (a T1), so the test allocates nothing of its own. */
  static final class EveryOtherCallRefused extends ToolInvocation<String> {
    private final ConnectException refused = new ConnectException("connection refused") {
      @Override
      public synchronized Throwable fillInStackTrace() {
        return this;
      }
    };
    private long calls;

    @Override
    public String proceed(String key) throws ConnectException {
      if ((calls++ & 1) == 0) {
        throw refused;
      }
      return "quote";
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return "sku-42";
    }
  }

  private static final int WARM_UP_CALLS = 20_000;
  private static final int MEASURED_CALLS = 50_000;
  /**
   * The call's state, with compressed references (the default below a 32 GB heap), plus slack for the
   * measurement: a second object of the engine's own (the smallest, a task, was 48 B) does not fit in it. 280 B
   * since the call carries its guards' state (when a refusal ends, its budget wait, its half-open permit).
   */
  private static final long ONE_CALL_OBJECT = 280 + 16;

  @Test
  @DisplayName("allocates one object of the engine's own per call outside a scope, while nobody takes decision events")
  void allocatesOnlyItsCall() {
    Hfr hfr = Hfr.builder()
        .decisionSink(DecisionSink.discarding())
        // The tenant's budget stays on, sized so that a hundred thousand retries a second do not exhaust it.
        .tenantBudgets(TenantRetryBudgets.builder(Clock.system())
            .retriesPerWindow(Integer.MAX_VALUE / 2).window(Duration.ofSeconds(1)).build())
        .build();
    ToolDescriptor quote = ToolDescriptor.builder("com.acme.Quotes", "quote", Risk.R0).parameters("sku")
        .retry(RetrySpec.of(3, 0, 0, Fault.T1)).resultType(String.class).build();
    EveryOtherCallRefused flaky = new EveryOtherCallRefused();

    com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
    for (int i = 0; i < WARM_UP_CALLS; i++) {
      assertThat(hfr.execute(quote, flaky)).isEqualTo("quote");
    }
    long tid = Thread.currentThread().getId();
    long before = threads.getThreadAllocatedBytes(tid);
    for (int i = 0; i < MEASURED_CALLS; i++) {
      hfr.execute(quote, flaky);
    }
    long perCall = (threads.getThreadAllocatedBytes(tid) - before) / MEASURED_CALLS;
    System.out.println("bytes allocated per read that failed once then answered: " + perCall);

    assertThat(flaky.calls).isEqualTo(2L * (WARM_UP_CALLS + MEASURED_CALLS));
    assertThat(perCall).isLessThanOrEqualTo(ONE_CALL_OBJECT);
  }
}
