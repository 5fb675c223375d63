package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.CallEscalatedException;
import dev.hfr.runtime.CallFailedException;
import dev.hfr.runtime.CallRefusedException;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.OutcomeUnknownException;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolOutcome;
import java.net.http.HttpTimeoutException;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every call HFR ends without an accepted result throws an unchecked {@link ToolCallException} whose
 * subclass names the case, with the tool's own exception as the cause — never the bare exception.
 */
@DisplayName("Outcomes callers cannot miss")
class OutcomeExceptionsTest {

  private final Fixtures f = new Fixtures();

  @Test
  @DisplayName("an R1 write that times out on every attempt: OutcomeUnknownException, the timeout as cause,"
      + " the task's report readable after the scope closed")
  void idempotentWriteTimingOutIsOutcomeUnknown() {
    Hfr hfr = f.engine();
    ScriptedTool<String> pay = new ScriptedTool<String>(10, null).failsTimes(10, Fixtures.timeout());

    Throwable thrown;
    try (TaskScope task = hfr.openTask(TaskSpec.builder("acme", "pay-1").build())) {
      hfr.execute(Fixtures.idempotentWrite(), pay);
      thrown = null;
    } catch (ToolCallException e) {
      thrown = e;
    }

    assertThat(thrown).isInstanceOf(OutcomeUnknownException.class).hasCauseInstanceOf(HttpTimeoutException.class)
        .hasMessageContaining("do not resend it");
    OutcomeUnknownException unknown = (OutcomeUnknownException) thrown;
    assertThat(unknown.outcome().sideEffect()).isTrue();
    assertThat(unknown.outcome().artifactRefs()).anyMatch(ref -> ref.startsWith("ledger:"));
    TaskReport report = unknown.taskReport().orElseThrow();
    assertThat(report.taskId()).isEqualTo("pay-1");
    assertThat(report.unverifiedSideEffects()).isEqualTo(1);
  }

  @Test
  @DisplayName("an R3 write answered 500: write_outcome_unknown, not a timeout; OutcomeUnknownException")
  void irreversibleWriteAnswered500IsWriteOutcomeUnknown() {
    Hfr hfr = f.engine();
    ScriptedTool<String> send = new ScriptedTool<String>("bob").fails(Fixtures.http(500, ""));

    Throwable thrown = catchThrowable(() -> hfr.execute(Fixtures.irreversible(), send));

    assertThat(thrown).isInstanceOf(OutcomeUnknownException.class);
    assertThat(((ToolCallException) thrown).outcome().reason()).isEqualTo("write_outcome_unknown");
    assertThat(send.methodCalls).isEqualTo(1);
  }

  @Test
  @DisplayName("an R3 write answered 503 was refused before processing: CallFailedException, irreversible, retryable, nothing left half-done")
  void irreversibleWriteAnswered503IsNotApplied() {
    Hfr hfr = f.engine();
    ScriptedTool<String> send = new ScriptedTool<String>("bob").fails(Fixtures.http(503, ""));

    Throwable thrown = catchThrowable(() -> hfr.execute(Fixtures.irreversible(), send));

    assertThat(thrown).isInstanceOf(CallFailedException.class);
    assertThat(((ToolCallException) thrown).outcome().retryable()).isTrue();
    // why HFR did not resend it: the write is irreversible (a later call of the caller's may succeed)
    assertThat(((ToolCallException) thrown).outcome().reason()).isEqualTo("irreversible");
    assertThat(((ToolCallException) thrown).outcome().sideEffect()).isFalse();
    assertThat(send.methodCalls).isEqualTo(1);
  }

  @Test
  @DisplayName("a call the approval gate denies: CallRefusedException saying how to get approval")
  void deniedApprovalIsRefused() {
    Hfr hfr = f.builder().approvalGate(dev.hfr.runtime.approval.ApprovalGate.denyAll()).build();
    ToolDescriptor refund = ToolDescriptor.builder("com.acme.Payments", "refund", Risk.R3).parameters("id")
        .requiresApproval(true).resultType(String.class).build();
    ScriptedTool<String> tool = new ScriptedTool<String>("o-1").returns("refunded");

    Throwable thrown = catchThrowable(() -> hfr.execute(refund, tool));

    assertThat(thrown).isInstanceOf(CallRefusedException.class).hasMessageContaining("approvalGate");
    assertThat(tool.methodCalls).isZero();
  }

  @Test
  @DisplayName("a read refused as a bad request (T7): CallFailedException, not retryable, the HTTP error as cause")
  void permanentErrorIsAFailure() {
    Hfr hfr = f.engine();
    ScriptedTool<String> search = new ScriptedTool<String>("q").fails(Fixtures.http(400, "{\"error\":\"bad query\"}"));

    Throwable thrown = catchThrowable(() -> hfr.execute(Fixtures.read("search"), search));

    assertThat(thrown).isInstanceOf(CallFailedException.class)
        .hasCauseInstanceOf(dev.hfr.runtime.classify.HttpCallException.class);
    assertThat(((ToolCallException) thrown).outcome().retryable()).isFalse();
    assertThat(((ToolCallException) thrown).outcome().status()).isEqualTo(ToolOutcome.Status.FAILED);
  }

  @Test
  @DisplayName("a HIGH-criticality read with nothing left to try: CallEscalatedException; the handler got the evidence")
  void highCriticalityFailureIsEscalated() {
    Hfr hfr = f.engine();
    ToolDescriptor lookup = Fixtures.readBuilder("lookup").criticality(Criticality.Level.HIGH).build();
    ScriptedTool<String> tool = new ScriptedTool<String>("q").fails(Fixtures.http(404, "{\"error\":\"no such item\"}"));

    Throwable thrown = catchThrowable(() -> hfr.execute(lookup, tool));

    assertThat(thrown).isInstanceOf(CallEscalatedException.class).hasMessageContaining("escalation handler");
    assertThat(f.escalations.size()).isEqualTo(1);
  }
}
