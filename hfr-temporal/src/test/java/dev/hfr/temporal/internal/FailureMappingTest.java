package dev.hfr.temporal.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.ledger.KeyInUseException;
import dev.hfr.temporal.HfrFailureDetails;
import dev.hfr.temporal.HfrFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("FailureMapping: HFR's end of a call as the activity attempt's ApplicationFailure")
class FailureMappingTest {

  private static ToolCallException ended(ToolOutcome.Status status, Fault fault, boolean retryable, String reason,
      Throwable cause, boolean unknown) {
    ToolOutcome outcome = new ToolOutcome("Shop.charge", status, fault, retryable, true, List.of("ledger:k-1"), false,
        false, DegradeLevel.L0, 2, reason);
    return ToolCallException.of(outcome, cause, unknown, null, false);
  }

  @Test
  @DisplayName("a key another worker holds is retryable, after the holder's remaining lease and half a second")
  void keyInUseWaitsForTheLease() {
    ToolCallException call = ended(ToolOutcome.Status.FAILED, null, false, "key_in_use",
        new KeyInUseException("k-1", null, Duration.ofMillis(1200)), false);

    ApplicationFailure failure = FailureMapping.toFailure(call, 0, false);

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.KEY_IN_USE);
    assertThat(failure.isNonRetryable()).isFalse();
    assertThat(failure.getNextRetryDelay()).isEqualTo(Duration.ofMillis(1700));
  }

  @Test
  @DisplayName("a retryable failure carries the provider's Retry-After, found anywhere in the cause chain")
  void retryAfterFromTheCause() {
    HttpCallException http = new HttpCallException(503, Map.of("Retry-After", List.of("7")), "busy");
    ToolCallException call = ended(ToolOutcome.Status.FAILED, Fault.T1, true, "deadline",
        new IllegalStateException(http), false);

    ApplicationFailure failure = FailureMapping.toFailure(call, 0, false);

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.FAILED);
    assertThat(failure.isNonRetryable()).isFalse();
    assertThat(failure.getNextRetryDelay()).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  @DisplayName("a retryable failure without Retry-After leaves the delay to Temporal's retry policy")
  void noRetryAfterNoDelay() {
    ApplicationFailure failure = FailureMapping.toFailure(
        ended(ToolOutcome.Status.FAILED, Fault.T1, true, "deadline", new java.io.IOException("reset"), false), 0, false);

    assertThat(failure.isNonRetryable()).isFalse();
    assertThat(failure.getNextRetryDelay()).isNull();
  }

  @Test
  @DisplayName("an escalation is not retryable; its details carry the ledger key and the evidence")
  void escalationCarriesTheOutcome() {
    ToolCallException call = ended(ToolOutcome.Status.ESCALATED, Fault.T3, false, "reconcile_unknown",
        new java.io.IOException("reconcile query failed"), false);

    ApplicationFailure failure = FailureMapping.toFailure(call, 0, true);
    HfrFailureDetails details = FailureMapping.details(call);

    assertThat(failure.getType()).isEqualTo(HfrFailureTypes.ESCALATED);
    assertThat(failure.isNonRetryable()).as("retryUnknownOutcomes does not retry an escalation").isTrue();
    assertThat(details.ledgerKey()).isEqualTo("k-1");
    assertThat(details.reason()).isEqualTo("reconcile_unknown");
    assertThat(details.fault()).isEqualTo("T3");
    assertThat(details.evidence()).contains("reconcile query failed");
  }

  @Test
  @DisplayName("a failure that is not HFR's is not found, so it passes through unchanged")
  void foreignFailuresAreNotFound() {
    assertThat(FailureMapping.find(new IllegalStateException(new java.io.IOException("x")))).isNull();
  }
}
