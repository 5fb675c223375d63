package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.ActionTable;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.verify.Verdict;
import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The branches of a rejected write that the generated-proxy test ({@code samples/…/verify/RejectedWriteTest})
 * does not reach: a reconcile that cannot tell, and a retry the gate refuses.
 */
@DisplayName("A write the verifier rejects")
class RejectedWriteRulesTest {

  private final Fixtures f = new Fixtures();

  /** The R2 order, whose answer must start with "order-". */
  private static ToolDescriptor checkedOrder() {
    return ToolDescriptor.builder("com.acme.Orders", "createOrder", Risk.R2).parameters("sku").reconcile("findOrder")
        .retry(Fixtures.FAST).resultType(String.class)
        .verify(VerifyLevel.V1, (String r) -> r.startsWith("order-") ? Verdict.accept() : Verdict.reject("no_order_id"))
        .build();
  }

  private static String key() {
    return IdempotencyKeys.key("acme", "t", "Orders.createOrder", List.of("sku"), 0);
  }

  @Test
  @DisplayName("is reconciled by default for R1 and R2, and escalated for R3")
  void actionTable() {
    for (Criticality.Level c : Criticality.Level.values()) {
      assertThat(ActionTable.defaultAction(Fault.V1, Risk.R0, c)).isEqualTo(Action.RETRY);
      assertThat(ActionTable.defaultAction(Fault.V1, Risk.R1, c)).isEqualTo(Action.RECONCILE);
      assertThat(ActionTable.defaultAction(Fault.V1, Risk.R2, c)).isEqualTo(Action.RECONCILE);
      assertThat(ActionTable.defaultAction(Fault.V1, Risk.R3, c)).isEqualTo(Action.ESCALATE);
    }
  }

  @Test
  @DisplayName("whose reconcile fails is escalated, sent once, its record UNKNOWN: a rejected answer confirms nothing")
  void reconcileFailureEscalates() {
    ScriptedTool<String> tool = new ScriptedTool<String>("sku").returns("garbled").reconcileFails(new IOException("db down"));
    Hfr hfr = f.engine();
    ToolCallException e;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(checkedOrder(), tool));
    }

    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(e.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
    assertThat(tool.methodCalls).isEqualTo(1);
    assertThat(f.ledger.find("acme", key()).orElseThrow().state()).isEqualTo(LedgerState.UNKNOWN);
  }

  @Test
  @DisplayName("found absent twice with the same rejection is not sent a third time: the step is replanned, nothing left in place")
  void sameRejectionTwiceStops() {
    ScriptedTool<String> tool = new ScriptedTool<String>("sku").returns("garbled").returns("garbled")
        .reconcileFindsNothing().reconcileFindsNothing();
    Hfr hfr = f.engine();
    ToolCallException e;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(checkedOrder(), tool));
    }

    assertThat(tool.methodCalls).isEqualTo(2);
    assertThat(tool.reconcileCalls).isEqualTo(2);
    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.FAILED);
    assertThat(e.outcome().reason()).isEqualTo(Reason.SAME_VERIFIER_REASON.code());
    assertThat(f.sink.events).extracting(DecisionEvent::action, DecisionEvent::reason).containsExactly(
        org.assertj.core.groups.Tuple.tuple(Action.RETRY, Reason.REJECTED_WRITE_ABSENT),
        org.assertj.core.groups.Tuple.tuple(Action.REPLAN, Reason.SAME_VERIFIER_REASON));
    assertThat(f.ledger.find("acme", key()).orElseThrow().state()).isEqualTo(LedgerState.RECONCILED_ABSENT);
  }
}
