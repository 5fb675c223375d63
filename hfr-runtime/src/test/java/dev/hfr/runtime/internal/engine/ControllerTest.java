package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrMode;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The controller")
class ControllerTest {

  private final Fixtures f = new Fixtures();

  @Test
  @DisplayName("returns a clean result after one attempt, records no decision and counts one successful attempt")
  void happyPath() {
    Hfr hfr = f.engine();
    ToolDescriptor search = Fixtures.read("search");
    ScriptedTool<String> tool = new ScriptedTool<String>("q").returns("hits");

    assertThat(hfr.execute(search, tool)).isEqualTo("hits");

    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(f.sink.events).isEmpty();
    assertThat(f.registry.get("harness.attempts").tag("tool", "Search.search").tag("class", "none")
        .tag("outcome", "success").functionCounter().count()).isEqualTo(1.0);
  }

  @Test
  @DisplayName("retries a T1 with full-jitter delays within min(cap, base·2^(k-1)) and returns the later success")
  void retriesTransientFailuresWithFullJitter() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").failsTimes(2, Fixtures.unavailable()).returns("hits");

    long before = f.time.nanoTime();
    assertThat(hfr.execute(Fixtures.read("search"), tool)).isEqualTo("hits");

    assertThat(tool.methodCalls).isEqualTo(3);
    List<DecisionEvent> events = f.sink.events;
    assertThat(events).extracting(DecisionEvent::action).containsExactly(Action.RETRY, Action.RETRY);
    assertThat(events).extracting(DecisionEvent::fault).containsOnly(Fault.T1);
    assertThat(events.get(0).delayMillis()).isBetween(0L, 100L);
    assertThat(events.get(1).delayMillis()).isBetween(0L, 200L);
    long slept = (f.time.nanoTime() - before) / 1_000_000L;
    assertThat(slept).isBetween(events.get(0).delayMillis() + events.get(1).delayMillis(),
        events.get(0).delayMillis() + events.get(1).delayMillis() + 2);
  }

  @Test
  @DisplayName("stops retrying after the step's attempts and fails with a structured, retryable outcome")
  void stopsAtTheStepBudget() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(Fixtures.http(500, "oops"));

    ToolCallException e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(Fixtures.read("search"), tool));

    // K = 3: the same T1 three times without new evidence stops the step before its 4th attempt.
    assertThat(tool.methodCalls).isEqualTo(3);
    ToolOutcome outcome = e.outcome();
    assertThat(outcome.status()).isEqualTo(ToolOutcome.Status.FAILED);
    assertThat(outcome.errorType()).isEqualTo(Fault.T1);
    assertThat(outcome.retryable()).isTrue();
    assertThat(outcome.sideEffect()).isFalse();
    assertThat(outcome.attempts()).isEqualTo(3);
    assertThat(outcome.reason()).isEqualTo(Reason.SAME_FAULT_REPEATED.code());
    assertThat(e.getCause()).isInstanceOf(dev.hfr.runtime.classify.HttpCallException.class);
  }

  @Test
  @DisplayName("prepares an R1 write's ledger key before the first attempt and passes the same key on every retry")
  void idempotentWriteReusesItsKey() {
    Hfr hfr = f.engine();
    ToolDescriptor pay = Fixtures.idempotentWrite();
    ScriptedTool<String> tool = new ScriptedTool<String>(25, null).fails(Fixtures.timeout()).fails(Fixtures.unavailable())
        .returns("paid");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "task-1").build())) {
      assertThat(hfr.execute(pay, tool)).isEqualTo("paid");
      assertThat(task.lastOutcome().artifactRefs()).anyMatch(r -> r.startsWith("ledger:"));
    }

    String expected = IdempotencyKeys.key("acme", "task-1", "Payments.pay", List.of(25), 0);
    assertThat(tool.keys).hasSize(3).containsOnly(expected);
    assertThat(f.ledger.find("acme", expected).orElseThrow().state()).isEqualTo(LedgerState.COMMITTED);
  }

  @Test
  @DisplayName("degrades an overloaded model (T4) to the next rung instead of retrying it, and marks the result degraded")
  void degradesAlongTheLadder() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("p").fails(Fixtures.overloaded()).rungReturns(0, "backup answer");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      assertThat(hfr.execute(Fixtures.modelWithLadder(Criticality.Level.MEDIUM), tool)).isEqualTo("backup answer");
      ToolOutcome outcome = task.lastOutcome();
      assertThat(outcome.degraded()).isTrue();
      assertThat(outcome.degradeLevel()).isEqualTo(DegradeLevel.L2);
      assertThat(outcome.attempts()).isEqualTo(2);
    }
    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(f.sink.actions()).containsExactly(Action.DEGRADE_MODEL);
    assertThat(f.registry.get("harness.degradation").tag("level", "L2").tag("reason", "T4").counter().count()).isEqualTo(1.0);
  }

  @Test
  @DisplayName("never degrades around a policy refusal (T8): it escalates with an evidence bundle")
  void neverDegradesAroundARefusal() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("p").fails(Fixtures.refused()).rungReturns(0, "other model");

    ToolCallException e = catchThrowableOfType(ToolCallException.class,
        () -> hfr.execute(Fixtures.modelWithLadder(Criticality.Level.LOW), tool));

    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(e.outcome().errorType()).isEqualTo(Fault.T8);
    assertThat(e.outcome().retryable()).isFalse();
    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(tool.rungCalls[0]).isZero();
    assertThat(tool.rungCalls[1]).isZero();
    assertThat(f.escalations.drain()).singleElement().satisfies(b -> {
      assertThat(b.fault()).isEqualTo(Fault.T8);
      assertThat(b.reason()).isEqualTo(Reason.POLICY_REFUSAL);
      assertThat(b.decisions()).extracting(DecisionEvent::action).containsExactly(Action.ESCALATE);
    });
  }

  @Test
  @DisplayName("never retries an R3 write, whatever the failure")
  void neverRetriesIrreversibleWrites() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("ann@example.com").fails(Fixtures.unavailable()).returns("sent");

    assertThatThrownBy(() -> hfr.execute(Fixtures.irreversible(), tool)).isInstanceOf(ToolCallException.class);
    assertThat(tool.methodCalls).isEqualTo(1);
  }

  @Test
  @DisplayName("reconciles an R2 write that timed out after committing, and returns the committed result without resending")
  void reconcilesAnR2TimeoutAfterCommit() {
    Hfr hfr = f.engine();
    ScriptedTool<String> tool = new ScriptedTool<String>("sku-1").fails(Fixtures.timeout()).returns("order-2")
        .reconcileFinds("order-1");

    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      assertThat(hfr.execute(Fixtures.queryableWrite(), tool)).isEqualTo("order-1");
      assertThat(task.lastOutcome().reason()).isEqualTo(Reason.RECONCILED_COMMITTED.code());
    }
    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(tool.reconcileCalls).isEqualTo(1);
    String key = IdempotencyKeys.key("acme", "t", "Orders.createOrder", List.of("sku-1"), 0);
    assertThat(f.ledger.find("acme", key).orElseThrow().state()).isEqualTo(LedgerState.RECONCILED_COMMITTED);
    assertThat(f.sink.actions()).containsExactly(Action.RECONCILE, Action.RECONCILE);
  }

  @Test
  @DisplayName("in shadow mode calls the tool once and rethrows its own exception, recording what HFR would have done")
  void shadowModeChangesNothing() {
    Hfr hfr = f.builder().mode(HfrMode.SHADOW).build();
    RuntimeException original = Fixtures.unavailable();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(original).returns("hits");

    assertThatThrownBy(() -> hfr.execute(Fixtures.read("search"), tool)).isSameAs(original);

    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(f.sink.events).singleElement().satisfies(ev -> {
      assertThat(ev.mode()).isEqualTo("shadow");
      assertThat(ev.action()).isEqualTo(Action.RETRY);
      assertThat(ev.fault()).isEqualTo(Fault.T1);
    });
  }

  @Test
  @DisplayName("with the kill switch off calls go straight through: no classification, no record")
  void killSwitch() {
    Hfr hfr = f.engine();
    hfr.mode(HfrMode.OFF);
    RuntimeException original = Fixtures.unavailable();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(original);

    assertThatThrownBy(() -> hfr.execute(Fixtures.read("search"), tool)).isSameAs(original);
    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(f.sink.events).isEmpty();
  }
}
