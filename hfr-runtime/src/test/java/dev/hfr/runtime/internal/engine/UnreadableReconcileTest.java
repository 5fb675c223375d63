package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.ledger.LedgerState;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A reconcile answer HFR cannot read as present or absent leaves the write unknown, never committed. */
class UnreadableReconcileTest {

  private final Fixtures f = new Fixtures();
  private final ToolDescriptor order = Fixtures.queryableWrite();

  @Test
  @DisplayName("a reconcile method answering null after a timeout: unknown, escalated, the ledger record stays UNKNOWN")
  void nullAfterTimeoutIsUnknown() {
    Hfr hfr = f.engine();
    ScriptedTool<String> call = new ScriptedTool<String>("sku-n").fails(Fixtures.timeout()).reconcileAnswersNull();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "null-answer").build())) {
      OutcomeUnknownException e = catchThrowableOfType(OutcomeUnknownException.class, () -> hfr.execute(order, call));
      assertThat(e.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
      assertThat(e.getCause()).hasMessageContaining("returned null instead of an Optional");
    }
    assertThat(call.methodCalls).isEqualTo(1);
    assertThat(state("null-answer")).isEqualTo(LedgerState.UNKNOWN);
  }

  @Test
  @DisplayName("a reconcile method answering null for a write the ledger holds committed: escalated, never taken as its result")
  void nullForACommittedWriteIsNotAResult() {
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "committed").build())) {
      hfr.execute(order, new ScriptedTool<String>("sku-n").returns("order-n"));
    }
    ScriptedTool<String> replay = new ScriptedTool<String>("sku-n").returns("dup").reconcileAnswersNull();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "committed").build())) {
      CallEscalatedException e = catchThrowableOfType(CallEscalatedException.class, () -> hfr.execute(order, replay));
      assertThat(e.outcome().reason()).isEqualTo(Reason.RECONCILE_UNKNOWN.code());
      assertThat(f.escalations.size()).isEqualTo(1);
    }
    assertThat(replay.methodCalls).isZero();
  }

  private LedgerState state(String task) {
    String key = IdempotencyKeys.key("acme", task, order.name(), List.of("sku-n"), 0);
    return f.ledger.find("acme", key).orElseThrow().state();
  }
}
