package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.breaker.CircuitBreakerConfig;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.TaskLimitTracker;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.breaker.CircuitBreakers;
import dev.hfr.runtime.telemetry.CallTiming;
import dev.hfr.runtime.time.VirtualTime;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Which calls read the clock: every call, except — under the default {@link CallTiming#ADAPTIVE} — the
 * clean calls of a tool that answers in microseconds and is called back to back, in a task or not, of which
 * a random one in 16 is timed. Virtual time stands still unless a tool advances it, so here a call "takes" exactly
 * what the tool says.
 */
@DisplayName("Call timing")
class CallTimingTest {

  private static final int CALLS = 2_000;

  /** Answers after {@code micros} of virtual time. */
  static final class Lookup extends ToolInvocation<String> {
    private final VirtualTime time;
    private final long micros;
    private final String query;

    Lookup(VirtualTime time, long micros) {
      this(time, micros, "q");
    }

    Lookup(VirtualTime time, long micros, String query) {
      this.time = time;
      this.micros = micros;
      this.query = query;
    }

    @Override
    public String proceed(String key) {
      time.advance(micros * 1_000);
      return "hit";
    }

    @Override
    public int argumentCount() {
      return 1;
    }

    @Override
    public Object argument(int index) {
      return query;
    }
  }

  private static double timed(Fixtures f) {
    return f.registry.get("harness.call.duration").tag("status", "success").timer().count();
  }

  private static double calls(Fixtures f) {
    return f.registry.get("harness.calls").functionCounter().count();
  }

  /** Makes {@link #CALLS} calls of a lookup that takes {@code micros}, {@code gapMillis} apart. */
  private static void callLookup(Fixtures f, Hfr hfr, long micros, long gapMillis) {
    ToolDescriptor lookup = Fixtures.read("lookup");
    Lookup call = new Lookup(f.time, micros);
    for (int i = 0; i < CALLS; i++) {
      hfr.execute(lookup, call);
      f.time.advance(Duration.ofMillis(gapMillis).toNanos());
    }
  }

  @Test
  @DisplayName("a tool answering in a microsecond, called back to back, is timed on a sample and counted in full")
  void fastToolIsSampled() {
    Fixtures f = new Fixtures();
    callLookup(f, f.engine(), 1, 0);
    assertThat(calls(f)).isEqualTo(CALLS);
    // 64 calls are timed while the mean is learnt, then one in 16 of the rest (mean 121, sd 11).
    assertThat(timed(f)).isBetween(64.0 + 60, 64.0 + 190);
    assertThat(f.registry.get("harness.call.duration").tag("status", "success").timer().mean(TimeUnit.NANOSECONDS))
        .as("the sample's mean is the calls' duration").isEqualTo(1_000.0);
  }

  @Test
  @DisplayName("clean calls of several tenants, each with its own breaker, are counted in full, sampled or timed")
  void cleanCallsOfSeveralTenantsCounted() throws Exception {
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    ToolDescriptor lookup = Fixtures.read("lookup");
    Lookup call = new Lookup(f.time, 1);
    int each = 500;
    for (String tenant : new String[] {"acme", "globex"}) {
      try (TaskScope task = hfr.openTask(TaskSpec.builder(tenant, "counted").limits(TaskLimits.unlimited()).build())) {
        for (int i = 0; i < each; i++) {
          hfr.execute(lookup, call);
        }
        assertThat(task.report().succeeded()).isEqualTo(each);
      }
    }
    for (int i = 0; i < each; i++) {
      hfr.execute(lookup, call); // outside any task: the default tenant
    }
    assertThat(calls(f)).isEqualTo(3 * each);
    assertThat(f.registry.get("harness.attempts").tag("class", "none").tag("outcome", "success").functionCounter().count())
        .isEqualTo(3 * each);
  }

  @Test
  @DisplayName("a tool answering in 50 µs has every call timed")
  void slowToolIsTimedEveryCall() {
    Fixtures f = new Fixtures();
    callLookup(f, f.engine(), 50, 0);
    assertThat(timed(f)).isEqualTo(CALLS);
  }

  @Test
  @DisplayName("a fast tool called rarely has every call timed")
  void rareCallsAreTimedEveryCall() {
    Fixtures f = new Fixtures();
    callLookup(f, f.engine(), 1, 1);
    assertThat(timed(f)).isEqualTo(CALLS);
  }

  @Test
  @DisplayName("EVERY_CALL times every call")
  void everyCall() {
    Fixtures f = new Fixtures();
    callLookup(f, f.builder().callTiming(CallTiming.EVERY_CALL).build(), 1, 0);
    assertThat(timed(f)).isEqualTo(CALLS);
  }

  @Test
  @DisplayName("a breaker with a latency threshold needs every latency: every call is timed")
  void latencyThresholdTimesEveryCall() {
    Fixtures f = new Fixtures();
    Hfr hfr = f.builder().circuitBreakers(CircuitBreakers.builder(f.time)
        .defaults(CircuitBreakerConfig.builder().latencyThreshold(0.95, Duration.ofMillis(200)).build()).build()).build();
    callLookup(f, hfr, 1, 0);
    assertThat(timed(f)).isEqualTo(CALLS);
  }

  @Test
  @DisplayName("calls inside a task are sampled like any other, and each is counted in the task")
  void callsInATask() {
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    ToolDescriptor lookup = Fixtures.read("lookup");
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-1").limits(TaskLimits.unlimited()).build())) {
      for (int i = 0; i < CALLS; i++) {
        hfr.execute(lookup, new Lookup(f.time, 1, "q" + i));
      }
      assertThat(task.report().calls()).isEqualTo(CALLS);
      assertThat(task.report().succeeded()).isEqualTo(CALLS);
      assertThat(task.report().attempts()).isEqualTo(CALLS);
    }
    assertThat(timed(f)).isBetween(64.0 + 60, 64.0 + 190);
    assertThat(calls(f)).isEqualTo(CALLS);
  }

  @Test
  @DisplayName("a task past its wall-time limit is refused by the 16th sampled call at the latest, though untimed calls read no clock")
  void wallTimeLimitOfSampledCalls() {
    Fixtures f = new Fixtures();
    Hfr hfr = f.engine();
    ToolDescriptor lookup = Fixtures.read("lookup");
    TaskLimits limits = TaskLimits.unlimited().toBuilder().maxWallTime(Duration.ofMinutes(1)).build();
    for (int round = 0; round < 20; round++) {
      try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t-" + round).limits(limits).build())) {
        for (int i = 0; i < 200; i++) { // the tool is sampled: most calls take the latest reading
          hfr.execute(lookup, new Lookup(f.time, 1, "q" + i));
        }
        f.time.advance(Duration.ofMinutes(2).toNanos()); // the limit passes while nobody calls
        int admitted = 0;
        while (admitted <= TaskLimitTracker.EXACT_READING_EVERY) {
          try {
            hfr.execute(lookup, new Lookup(f.time, 1, "late"));
            admitted++;
          } catch (ToolCallException refused) {
            assertThat(refused.outcome().reason()).isEqualTo(Reason.TASK_LIMIT_REACHED.code());
            break;
          }
        }
        assertThat(admitted).as("calls admitted after the limit passed, round %d", round)
            .isLessThan(TaskLimitTracker.EXACT_READING_EVERY);
        assertThat(task.report().budgetUsage().wallTimeNanos()).isGreaterThan(Duration.ofMinutes(1).toNanos());
      }
    }
  }
}
