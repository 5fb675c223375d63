package dev.hfr.runtime.conversation;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.contract.ToolExecutionContract;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** The model is told what happened to its call and whether calling again helps. */
class ModelAnswersTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static ToolOutcome outcome(ToolOutcome.Status status, Fault fault, boolean retryable, boolean sideEffect,
      String reason) {
    return new ToolOutcome("Shop.charge", status, fault, retryable, sideEffect, List.of("ledger:ab12"), sideEffect,
        false, DegradeLevel.L0, 1, reason);
  }

  private static JsonNode answer(ToolOutcome outcome) throws Exception {
    return JSON.readTree(ModelAnswers.render(outcome));
  }

  @Test
  @DisplayName("an escalated call says a person was asked and not to call again")
  void escalated() throws Exception {
    JsonNode a = answer(outcome(ToolOutcome.Status.ESCALATED, Fault.T3, false, true, "timeout_unknown_state"));
    assertThat(a.path("call_again").asBoolean(true)).isFalse();
    assertThat(a.path("message").asText()).contains("A person was asked").contains("Do not call it again");
    assertThat(a.path("status").asText()).isEqualTo("escalated");
    assertThat(a.path("error_type").asText()).isEqualTo("timeout_unknown_state");
  }

  @Test
  @DisplayName("a write of unknown outcome says it may have been applied and not to call again")
  void unknownWrite() throws Exception {
    JsonNode a = answer(outcome(ToolOutcome.Status.FAILED, Fault.T3, false, true, "reconcile_unknown"));
    assertThat(a.path("call_again").asBoolean(true)).isFalse();
    assertThat(a.path("message").asText()).contains("may already have been applied").contains("Do not call it again");
  }

  @Test
  @DisplayName("an answer from the ledger says the write was already done")
  void alreadyDone() throws Exception {
    JsonNode a = answer(outcome(ToolOutcome.Status.FAILED, null, false, false, "already_committed"));
    assertThat(a.path("call_again").asBoolean(true)).isFalse();
    assertThat(a.path("message").asText()).contains("already done");
  }

  @Test
  @DisplayName("retryable=false says calling again will not help; retryable=true that a later call may succeed")
  void retryableDecidesTheRest() throws Exception {
    JsonNode no = answer(outcome(ToolOutcome.Status.FAILED, Fault.T7, false, false, "permanent_error"));
    assertThat(no.path("call_again").asBoolean(true)).isFalse();
    assertThat(no.path("message").asText()).contains("will not help");
    JsonNode yes = answer(outcome(ToolOutcome.Status.FAILED, Fault.T2, true, false, "circuit_open"));
    assertThat(yes.path("call_again").asBoolean(false)).isTrue();
    assertThat(yes.path("message").asText()).contains("may succeed");
  }

  @Test
  @DisplayName("a refusal says it will be refused again")
  void refused() throws Exception {
    JsonNode a = answer(outcome(ToolOutcome.Status.FAILED, Fault.T8, false, false, "policy_refusal"));
    assertThat(a.path("call_again").asBoolean(true)).isFalse();
    assertThat(a.path("message").asText()).contains("refused again");
  }

  @Test
  @DisplayName("a contract rendered by an adapter gets its advice from its own retryable and side_effect")
  void unmanagedContracts() throws Exception {
    JsonNode unknown = JSON.readTree(ModelAnswers.withAdvice(ToolExecutionContract.renderUnmanaged("Shop.charge", Risk.R1,
        "unhandled_failure", Fault.UNCLASSIFIED, false, true)));
    assertThat(unknown.path("call_again").asBoolean(true)).isFalse();
    assertThat(unknown.path("message").asText()).contains("may already have been applied");
    JsonNode badArguments = JSON.readTree(ModelAnswers.withAdvice(ToolExecutionContract.renderUnmanaged("Shop.charge",
        Risk.R1, "invalid_arguments", Fault.T5, true, false)));
    assertThat(badArguments.path("call_again").asBoolean(false)).isTrue();
    assertThat(badArguments.path("message").asText()).contains("corrected arguments");
  }

  @Test
  @DisplayName("a result answered from the ledger is marked as a replay, with its result, and says not to call again")
  void replay() throws Exception {
    ToolOutcome replayed = outcome(ToolOutcome.Status.SUCCESS, null, false, false, ModelAnswers.REPLAYED);
    assertThat(ModelAnswers.isReplay(replayed)).isTrue();
    JsonNode a = JSON.readTree(ModelAnswers.renderReplay(replayed, "{\"id\":7}"));
    assertThat(a.path("replayed").asBoolean()).isTrue();
    assertThat(a.path("result").asText()).isEqualTo("{\"id\":7}");
    assertThat(a.path("call_again").asBoolean(true)).isFalse();
    assertThat(a.path("message").asText()).contains("already done").contains("recorded result");
    assertThat(ModelAnswers.isReplay(outcome(ToolOutcome.Status.SUCCESS, null, false, false, "ok"))).isFalse();
  }

  @Test
  @DisplayName("a re-call of a write whose outcome is still unknown says a person was asked and nothing was sent")
  void unknownRecall() throws Exception {
    for (ToolOutcome.Status status : new ToolOutcome.Status[] {ToolOutcome.Status.FAILED, ToolOutcome.Status.ESCALATED}) {
      JsonNode a = answer(outcome(status, Fault.T3, false, true, "outcome_unknown_recall"));
      assertThat(a.path("call_again").asBoolean(true)).isFalse();
      assertThat(a.path("message").asText()).contains("a person was asked").contains("nothing was sent again")
          .contains("Do not call it again");
    }
  }
}
