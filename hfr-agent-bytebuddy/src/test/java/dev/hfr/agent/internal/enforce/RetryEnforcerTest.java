package dev.hfr.agent.internal.enforce;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.internal.record.Decision;
import dev.hfr.agent.internal.telemetry.AgentMeters;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.time.VirtualTime;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

class RetryEnforcerTest {

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final RetryEnforcer enforcer =
      new RetryEnforcer(3, 100, 2000, 10_000, 600, new VirtualTime(), new AgentMeters(registry, "enforce"));

  private static Decision failure(Fault fault, Risk risk, Action action, long retryAfterMillis) {
    return new Decision(new Classification(fault, 0.9, null, retryAfterMillis, "test"), risk, action);
  }

  @Test
  @DisplayName("a read that failed transiently is retried after a full-jitter delay within the cap, up to the attempt bound")
  void retriesTransientReadsWithinTheBound() {
    Decision t1 = failure(Fault.T1, Risk.R0, Action.RETRY, -1);
    long first = enforcer.retryDelayNanos("api", true, 1, t1, -1);
    assertThat(first).isBetween(0L, TimeUnit.MILLISECONDS.toNanos(100));
    assertThat(enforcer.retryDelayNanos("api", true, 2, t1, -1)).isBetween(0L, TimeUnit.MILLISECONDS.toNanos(200));
    assertThat(enforcer.retryDelayNanos("api", true, 3, t1, -1)).as("the third attempt was the last").isEqualTo(-1);
  }

  @Test
  @DisplayName("a request the agent may not repeat is never retried, whatever the fault")
  void neverRetriesWithoutPermission() {
    assertThat(enforcer.retryDelayNanos("api", false, 1, failure(Fault.T1, Risk.R2, Action.RECONCILE, -1), -1)).isEqualTo(-1);
    assertThat(enforcer.retryDelayNanos("api", false, 1, failure(Fault.T2, Risk.R2, Action.RETRY, -1), -1)).isEqualTo(-1);
  }

  @Test
  @DisplayName("only T1, T2 and T3 with the action RETRY are retried")
  void onlyRetryableClasses() {
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T7, Risk.R0, Action.FAIL, -1), -1)).isEqualTo(-1);
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T4, Risk.R0, Action.DEGRADE_MODEL, -1), -1)).isEqualTo(-1);
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.UNCLASSIFIED, Risk.R0, Action.RETRY, -1), -1)).isEqualTo(-1);
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T3, Risk.R0, Action.RETRY, -1), -1)).isNotNegative();
  }

  @Test
  @DisplayName("Retry-After is a lower bound on the delay; one longer than retry.after.max is not waited for")
  void honoursRetryAfter() {
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T2, Risk.R0, Action.RETRY, 1500), -1))
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1500));
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T2, Risk.R0, Action.RETRY, 60_000), -1)).isEqualTo(-1);
  }

  @Test
  @DisplayName("once the host's breaker opens, its requests are no longer retried; other hosts still are")
  void openBreakerStopsRetries() {
    Decision t1 = failure(Fault.T1, Risk.R0, Action.RETRY, -1);
    for (int i = 0; i < 100; i++) {
      enforcer.onAttempt("down.example", t1, 1_000_000);
    }
    assertThat(enforcer.retryDelayNanos("down.example", true, 1, t1, -1)).isEqualTo(-1);
    assertThat(enforcer.retryDelayNanos("up.example", true, 1, t1, -1)).isNotNegative();
    assertThat(registry.get(AgentMeters.CIRCUIT_STATE).tag("target", "down.example").gauge().value()).isEqualTo(1.0);
  }

  @Test
  @DisplayName("retry.budget: once the JVM's retries of the minute are spent, nothing is retried until the next minute")
  void budgetBoundsRetriesPerMinute() {
    VirtualTime time = new VirtualTime();
    RetryEnforcer two = new RetryEnforcer(3, 100, 2000, 10_000, 2, time, new AgentMeters(registry, "enforce"));
    Decision t1 = failure(Fault.T1, Risk.R0, Action.RETRY, -1);
    assertThat(two.retryDelayNanos("a.example", true, 1, t1, -1)).isNotNegative();
    assertThat(two.retryDelayNanos("b.example", true, 1, t1, -1)).isNotNegative();
    assertThat(two.retryDelayNanos("c.example", true, 1, t1, -1)).as("the budget is the JVM's, for every host").isEqualTo(-1);
    time.advance(TimeUnit.MINUTES.toNanos(1));
    assertThat(two.retryDelayNanos("c.example", true, 1, t1, -1)).isNotNegative();
  }

  @Test
  @DisplayName("a rate limit's own hint (Anthropic's reset) is honoured when the classifier had none; other faults ignore it")
  void rateLimitHintIsALowerBound() {
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T2, Risk.R0, Action.RETRY, -1), 1500))
        .isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(1500));
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T2, Risk.R0, Action.RETRY, -1), 60_000)).isEqualTo(-1);
    assertThat(enforcer.retryDelayNanos("api", true, 1, failure(Fault.T1, Risk.R0, Action.RETRY, -1), 60_000))
        .isBetween(0L, TimeUnit.MILLISECONDS.toNanos(100));
  }
}
