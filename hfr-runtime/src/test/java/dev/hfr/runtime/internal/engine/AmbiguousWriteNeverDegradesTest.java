package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Found by HFR-Bench (issue 20): an R1 write timed out (it may have been applied), its resend under the same
 * key then failed with a class that "proves not applied" — which proves it of the resend only — and the
 * engine degraded the write to a rung, which has no key: a duplicate. Likewise a rung's own timeout was
 * retried without a key.
 */
@DisplayName("A write that any attempt may have applied is never sent to a rung, nor resent on one")
@SuppressWarnings("try") // scopes opened only so the calls join a task
class AmbiguousWriteNeverDegradesTest {

  private final Fixtures f = new Fixtures();

  /** pay(amount, key) with an equivalent payment provider as an L2 rung. */
  private static ToolDescriptor paymentWithBackupProvider() {
    return ToolDescriptor.builder("com.acme.Payments", "pay", Risk.R1).parameters("amount", "key")
        .idempotencyKeyParameter(1).retry(Fixtures.FAST).resultType(String.class)
        .degradeTo("payWithBackupProvider", DegradeLevel.L2, Risk.R1).build();
  }

  @Test
  @DisplayName("a timeout, then a 529 on the same-key resend: escalated as outcome unknown, the rung never called")
  void aTimeoutThenAnOverloadIsNotDegraded() {
    ScriptedTool<String> tool = new ScriptedTool<String>(100, null).fails(Fixtures.timeout())
        .failsTimes(3, Fixtures.overloaded()).rungReturns(0, "paid-by-backup");
    Hfr hfr = f.engine();
    ToolCallException e;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(paymentWithBackupProvider(), tool));
    }
    assertThat(tool.rungCalls[0]).as("calls of the rung, which has no key").isZero();
    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
    assertThat(e.outcome().sideEffect()).as("the payment may have happened").isTrue();
    assertThat(f.ledger.pending()).as("the record is left UNKNOWN for reconciliation, not FAILED")
        .extracting(r -> r.state()).containsExactly(dev.hfr.runtime.ledger.LedgerState.UNKNOWN);
  }

  @Test
  @DisplayName("without an ambiguous attempt the same overload still degrades to the rung")
  void anOverloadAloneDegrades() {
    ScriptedTool<String> tool = new ScriptedTool<String>(100, null).failsTimes(4, Fixtures.overloaded())
        .rungReturns(0, "paid-by-backup");
    Hfr hfr = f.engine();
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      assertThat(hfr.execute(paymentWithBackupProvider(), tool)).isEqualTo("paid-by-backup");
    }
    assertThat(tool.rungCalls[0]).isEqualTo(1);
  }

  @Test
  @DisplayName("a rung of a write that times out is not retried without its key")
  void aRungThatTimesOutIsNotRetried() {
    ScriptedTool<String> tool = new ScriptedTool<String>(100, null).failsTimes(4, Fixtures.overloaded())
        .rungFails(0, Fixtures.timeout()).rungReturns(0, "paid-twice");
    Hfr hfr = f.engine();
    ToolCallException e;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "t").build())) {
      e = catchThrowableOfType(ToolCallException.class, () -> hfr.execute(paymentWithBackupProvider(), tool));
    }
    assertThat(tool.rungCalls[0]).as("the rung is called once, never resent").isEqualTo(1);
    assertThat(e.outcome().status()).isEqualTo(ToolOutcome.Status.ESCALATED);
  }
}
