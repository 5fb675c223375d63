package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.CallRefusedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.StepScope;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.config.HfrConfigLoader;
import dev.hfr.runtime.ledger.LedgerState;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The agent loop: a model that calls a tool again with the same arguments inside one task makes the same
 * logical write, which is answered from the ledger and never sent again; only a write that provably did not
 * happen may be sent anew, and two equal writes on purpose take distinct steps.
 */
class RecallTest {

  private final Fixtures f = new Fixtures();
  private final ToolDescriptor order = Fixtures.queryableWrite();
  private final ToolDescriptor pay = Fixtures.idempotentWrite();
  private final ToolDescriptor mail = Fixtures.irreversible();

  private TaskScope task(Hfr hfr, String id) {
    return hfr.openTask(TaskSpec.builder("acme", id).build());
  }

  @Test
  @DisplayName("a committed write called again is answered with its result, marked as a replay, and not sent")
  void committedWriteIsReplayed() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>("sku-1").returns("order-1");
    ScriptedTool<String> again = new ScriptedTool<String>("sku-1").returns("order-2").reconcileFinds("order-2");
    try (TaskScope task = task(hfr, "replay")) {
      assertThat(hfr.execute(order, first)).isEqualTo("order-1");
      assertThat(hfr.execute(order, again)).isEqualTo("order-1");
      ToolOutcome outcome = task.lastOutcome();
      assertThat(outcome.replayed()).isTrue();
      assertThat(outcome.reason()).isEqualTo(Reason.REPLAYED_FROM_LEDGER.code());
      assertThat(outcome.attempts()).isZero();
    }
    assertThat(again.methodCalls + again.reconcileCalls).as("nothing sent or asked for the re-call").isZero();
    assertThat(f.ledger.size()).isEqualTo(1);
  }

  @Test
  @DisplayName("an R3 write committed earlier in the task is replayed too: the e-mail is not sent twice")
  void irreversibleCommittedWriteIsReplayed() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>("a@example.com").returns("sent-1");
    ScriptedTool<String> again = new ScriptedTool<String>("a@example.com").returns("sent-2");
    try (TaskScope task = task(hfr, "mail")) {
      hfr.execute(mail, first);
      assertThat(hfr.execute(mail, again)).isEqualTo("sent-1");
    }
    assertThat(again.methodCalls).isZero();
  }

  @Test
  @DisplayName("an R2 write left unknown is reconciled when called again: found, its result; nothing is sent")
  void unknownQueryableWriteIsReconciledOnRecall() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>("sku-2").fails(Fixtures.timeout())
        .reconcileFails(new IllegalStateException("orders service down"));
    ScriptedTool<String> again = new ScriptedTool<String>("sku-2").returns("dup").reconcileFinds("order-2");
    try (TaskScope task = task(hfr, "unknown-r2")) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> hfr.execute(order, first));
      assertThat(hfr.execute(order, again)).isEqualTo("order-2");
    }
    assertThat(again.methodCalls).isZero();
    assertThat(again.reconcileCalls).isEqualTo(1);
    assertThat(f.ledger.size()).isEqualTo(1);
  }

  @Test
  @DisplayName("an R2 write reconciled absent on the re-call is sent under the same key, once")
  void absentQueryableWriteIsSentOnRecall() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>("sku-3").fails(Fixtures.timeout())
        .reconcileFails(new IllegalStateException("orders service down"));
    ScriptedTool<String> again = new ScriptedTool<String>("sku-3").returns("order-3").reconcileFindsNothing();
    try (TaskScope task = task(hfr, "absent-r2")) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> hfr.execute(order, first));
      assertThat(hfr.execute(order, again)).isEqualTo("order-3");
    }
    assertThat(again.methodCalls).isEqualTo(1);
    assertThat(f.ledger.size()).as("the re-call kept the first call's record").isEqualTo(1);
  }

  @Test
  @DisplayName("an R1 write left unknown is resent under its own key when called again")
  void unknownIdempotentWriteIsResentUnderItsKey() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>(100, null).failsTimes(4, Fixtures.timeout());
    ScriptedTool<String> again = new ScriptedTool<String>(100, null).returns("charge-1");
    try (TaskScope task = task(hfr, "unknown-r1")) {
      catchThrowableOfType(OutcomeUnknownException.class, () -> hfr.execute(pay, first));
      assertThat(hfr.execute(pay, again)).isEqualTo("charge-1");
    }
    assertThat(again.keys).hasSize(1);
    assertThat(again.keys.get(0)).isEqualTo(first.keys.get(0));
  }

  @Test
  @DisplayName("an R3 write left unknown, called again: nothing sent, no second escalation, the answer says calling again will not help")
  void unknownIrreversibleWriteIsNotSentAgain() {
    Hfr hfr = f.engine();
    ScriptedTool<String> first = new ScriptedTool<String>("b@example.com").fails(Fixtures.timeout());
    try (TaskScope task = task(hfr, "unknown-r3")) {
      OutcomeUnknownException e = catchThrowableOfType(OutcomeUnknownException.class, () -> hfr.execute(mail, first));
      assertThat(e).isInstanceOf(CallEscalatedException.class);
      for (int i = 0; i < 3; i++) {
        ScriptedTool<String> again = new ScriptedTool<String>("b@example.com").returns("sent");
        OutcomeUnknownException refused = catchThrowableOfType(OutcomeUnknownException.class, () -> hfr.execute(mail, again));
        assertThat(refused).isInstanceOf(CallEscalatedException.class).hasMessageContaining("will not help");
        assertThat(refused.outcome().reason()).isEqualTo(Reason.OUTCOME_UNKNOWN_RECALL.code());
        assertThat(refused.outcome().retryable()).isFalse();
        assertThat(refused.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
        assertThat(again.methodCalls).isZero();
      }
    }
    assertThat(first.methodCalls).isEqualTo(1);
    assertThat(f.escalations.size()).as("one person asked once").isEqualTo(1);
  }

  @Test
  @DisplayName("a write that provably did not happen may be sent again: the re-call is a new write")
  void failedWriteMaySendAgain() {
    Hfr hfr = f.engine();
    // A 429 is refused before processing: the receipt provably was not sent.
    ScriptedTool<String> first = new ScriptedTool<String>("c@example.com").fails(Fixtures.http(429, "Retry-After", "1", "{}"));
    ScriptedTool<String> again = new ScriptedTool<String>("c@example.com").returns("sent");
    try (TaskScope task = task(hfr, "failed-r3")) {
      catchThrowableOfType(dev.hfr.runtime.ToolCallException.class, () -> hfr.execute(mail, first));
      assertThat(hfr.execute(mail, again)).isEqualTo("sent");
    }
    assertThat(again.methodCalls).isEqualTo(1);
    assertThat(f.ledger.size()).isEqualTo(2);
    assertThat(f.ledger.pending()).isEmpty();
  }

  @Test
  @DisplayName("two equal writes on purpose take distinct steps: both are sent")
  void distinctStepsMakeTwoWrites() {
    Hfr hfr = f.engine();
    ScriptedTool<String> one = new ScriptedTool<String>(100, null).returns("charge-1");
    ScriptedTool<String> two = new ScriptedTool<String>(100, null).returns("charge-2");
    try (TaskScope task = task(hfr, "twice")) {
      try (StepScope s = task.step("charge-1")) {
        hfr.execute(pay, one);
      }
      try (StepScope s = task.step("charge-2")) {
        assertThat(hfr.execute(pay, two)).isEqualTo("charge-2");
      }
    }
    assertThat(one.keys.get(0)).isNotEqualTo(two.keys.get(0));
    assertThat(f.ledger.size()).isEqualTo(2);
  }

  @Test
  @DisplayName("an R3 write committed in an earlier run, called again without its result: refused, calling again will not help")
  void committedWithoutKeptResultIsRefused() {
    Hfr hfr = f.engine();
    try (TaskScope task = task(hfr, "earlier-run")) {
      hfr.execute(mail, new ScriptedTool<String>("d@example.com").returns("sent"));
    }
    ScriptedTool<String> again = new ScriptedTool<String>("d@example.com").returns("sent twice");
    try (TaskScope task = task(hfr, "earlier-run")) {
      CallRefusedException e = catchThrowableOfType(CallRefusedException.class, () -> hfr.execute(mail, again));
      assertThat(e.outcome().reason()).isEqualTo(Reason.ALREADY_COMMITTED.code());
      assertThat(e.outcome().retryable()).isFalse();
      assertThat(e).hasMessageContaining("will not help");
    }
    assertThat(again.methodCalls).isZero();
  }

  @Test
  @DisplayName("re-calls answered or refused from the ledger open no breaker: later calls in other tasks still run")
  void recallsAreNotFailures() {
    Hfr hfr = f.builder().config(HfrConfigLoader.parse(
        "hfr:\n  circuit_breaker:\n    consecutive_failures: 2\n    min_calls: 2\n"
            + "  verification:\n    human_spot_check_rate: 0\n", "hfr.yaml")).build();
    try (TaskScope task = task(hfr, "loop")) {
      catchThrowableOfType(OutcomeUnknownException.class,
          () -> hfr.execute(mail, new ScriptedTool<String>("e@example.com").fails(Fixtures.timeout())));
      for (int i = 0; i < 4; i++) { // five calls of one tool in a row: the task's repeated-action limit allows them
        catchThrowableOfType(OutcomeUnknownException.class,
            () -> hfr.execute(mail, new ScriptedTool<String>("e@example.com").returns("dup")));
      }
    }
    try (TaskScope task = task(hfr, "replays")) {
      hfr.execute(mail, new ScriptedTool<String>("f@example.com").returns("sent-f"));
      for (int i = 0; i < 4; i++) {
        assertThat(hfr.execute(mail, new ScriptedTool<String>("f@example.com").returns("dup"))).isEqualTo("sent-f");
      }
    }
    for (int i = 0; i < 3; i++) {
      ScriptedTool<String> later = new ScriptedTool<String>("g" + i + "@example.com").returns("sent-g" + i);
      try (TaskScope task = task(hfr, "later-" + i)) {
        assertThat(hfr.execute(mail, later)).isEqualTo("sent-g" + i);
      }
      assertThat(later.methodCalls).isEqualTo(1);
    }
    assertThat(f.registry.find("harness.recalls").tag("status", "escalated").counter().count()).isEqualTo(4);
    assertThat(f.registry.find("harness.recalls").tag("status", "success").counter().count()).isEqualTo(4);
    assertThat(f.escalations.size()).isEqualTo(1);
    assertThat(f.ledger.pending()).singleElement().satisfies(r -> assertThat(r.state()).isEqualTo(LedgerState.UNKNOWN));
  }
}
