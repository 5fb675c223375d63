package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.TenantRetryBudgets;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.time.Duration;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A call that a guard refused says which one (its decision's reason) and when the guard expects to admit it (the
 * decision's {@code delayMillis} and {@link ToolCallException#admitAfter()}): an open breaker, an empty retry
 * budget, a provider's rate limit.
 */
@DisplayName("A refusal names what refused and says when the call may be admitted")
class RefusalSaysWhenTest {

  private final Fixtures f = new Fixtures();
  private static final ToolDescriptor SEARCH = Fixtures.read("search");

  private ToolCallException fails(Hfr hfr, ScriptedTool<String> tool) {
    return catchThrowableOfType(ToolCallException.class, () -> hfr.execute(SEARCH, tool));
  }

  private DecisionEvent lastDecision() {
    return f.sink.events.get(f.sink.events.size() - 1);
  }

  @Test
  @DisplayName("an open breaker: circuit_open, admitted when its cool-down ends")
  void openBreaker() {
    Hfr hfr = f.engine();
    ToolCallException refused = null;
    for (int i = 0; i < 20 && refused == null; i++) {
      ToolCallException e = fails(hfr, new ScriptedTool<String>("q").fails(Fixtures.unavailable()));
      if (e.outcome().reason().equals(Reason.CIRCUIT_OPEN.code())) {
        refused = e;
      }
    }
    assertThat(refused).as("a call the open breaker refused").isNotNull();
    long coolDown = hfr.circuitBreakers().orElseThrow().all().get(0).openUntilNanos() - f.time.nanoTime();

    assertThat(lastDecision().reason()).isEqualTo(Reason.CIRCUIT_OPEN);
    assertThat(lastDecision().delayMillis()).isEqualTo((coolDown + 999_999) / 1_000_000);
    assertThat(refused.admitAfter()).contains(Duration.ofMillis(lastDecision().delayMillis()));
  }

  @Test
  @DisplayName("an empty tenant budget: tenant_budget_exhausted, admitted at its floor's next token")
  void emptyBudget() {
    Hfr hfr = f.builder().tenantBudgets(TenantRetryBudgets.builder(f.time).retriesPerWindow(60).ratio(0).build()).build();
    for (int i = 0; i < 60; i++) {
      assertThat(hfr.tenantBudgets().tryAcquire(Hfr.DEFAULT_TENANT)).isTrue();
    }
    ToolCallException e = fails(hfr, new ScriptedTool<String>("q").fails(Fixtures.http(500, "internal")).returns("ok"));

    assertThat(e.outcome().reason()).isEqualTo(Reason.TENANT_BUDGET_EXHAUSTED.code());
    assertThat(lastDecision().action()).isEqualTo(Action.FAIL);
    assertThat(lastDecision().delayMillis()).as("60 a minute: the next token in a second").isEqualTo(1_000);
    assertThat(e.admitAfter()).contains(Duration.ofSeconds(1));
  }

  @Test
  @DisplayName("a rate limit longer than the engine waits: the provider's reset time")
  void rateLimit() {
    Hfr hfr = f.builder().maxRetryAfter(Duration.ofSeconds(10)).build();
    ToolCallException e = fails(hfr, new ScriptedTool<String>("q")
        .fails(Fixtures.http(429, "Retry-After", "120", "{\"error\":\"rate_limited\"}")));

    assertThat(lastDecision().delayMillis()).isEqualTo(120_000);
    assertThat(e.admitAfter()).contains(Duration.ofSeconds(120));
  }

  @Test
  @DisplayName("a failure nothing refused says nothing about when")
  void plainFailure() {
    Hfr hfr = f.engine();
    ToolCallException e = fails(hfr, new ScriptedTool<String>("q").fails(Fixtures.http(400, "bad request")));

    assertThat(e.admitAfter()).isEmpty();
    assertThat(lastDecision().delayMillis()).isZero();
  }

  @Test
  @DisplayName("an R1 write whose lost answer's resend does not fit its deadline is not escalated: the next call in"
      + " the task resends it under the same key")
  void idempotentWriteIsResentLaterNotEscalated() throws Exception {
    Hfr hfr = f.engine();
    ToolDescriptor pay = Fixtures.idempotentWrite();
    ScriptedTool<String> first = new ScriptedTool<String>("100").fails(Fixtures.timeout());
    ScriptedTool<String> again = new ScriptedTool<String>("100").returns("receipt-1");
    ToolCallException e;
    String answer;
    try (dev.hfr.runtime.TaskScope task = hfr.openTask(dev.hfr.runtime.TaskSpec.builder("acme", "order-1")
        .deadline(Duration.ofMillis(1)).build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(pay, first));
    }
    try (dev.hfr.runtime.TaskScope task = hfr.openTask(dev.hfr.runtime.TaskSpec.builder("acme", "order-1").build())) {
      answer = hfr.execute(pay, again);
    }

    assertThat(e).isInstanceOf(dev.hfr.runtime.OutcomeUnknownException.class);
    assertThat(e.outcome().status()).as("nobody asked").isEqualTo(dev.hfr.runtime.ToolOutcome.Status.FAILED);
    assertThat(e.outcome().reason()).isEqualTo(Reason.DEADLINE.code());
    assertThat(e.resendableUnderKey()).isTrue();
    assertThat(f.escalations.size()).isZero();
    assertThat(answer).isEqualTo("receipt-1");
    assertThat(again.keys).as("resent under the first call's key").containsExactlyElementsOf(first.keys);
  }
}
