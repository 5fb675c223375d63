package dev.hfr.temporal.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.classify.HttpCallException;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.time.VirtualTime;
import dev.hfr.temporal.HfrFailureTypes;
import io.temporal.failure.ApplicationFailure;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The mapping of what the engine really throws (not an exception built by hand): the call goes through {@link
 * Hfr#execute} with its breakers, budgets and ledger, and the exception it ends with becomes the activity's failure.
 */
@DisplayName("FailureMapping of the engine's own exceptions")
class EngineFailureMappingTest {

  private final VirtualTime time = new VirtualTime(1_700_000_000_000L);

  private Hfr engine() {
    return Hfr.builder().clock(time).sleeper(time).ledger(new InMemoryLedger(time)).seed(1).build();
  }

  private static ToolInvocation<String> failing(Supplier<Exception> failure, Runnable effect) {
    return new ToolInvocation<>() {
      @Override
      public String proceed(String key) throws Exception {
        effect.run();
        throw failure.get();
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return "x";
      }
    };
  }

  private static ToolCallException callIn(Hfr hfr, String task, ToolDescriptor tool, ToolInvocation<String> call) {
    return catchThrowableOfType(ToolCallException.class, () -> {
      try (TaskScope scope = hfr.openTask(TaskSpec.builder("acme", task).build())) {
        hfr.execute(tool, call);
      }
    });
  }

  @Test
  @DisplayName("a call an open breaker refused is retryable after the breaker's cool-down, not at once")
  void breakerRefusalSaysWhen() {
    ToolDescriptor quote = ToolDescriptor.builder("com.shop.Quotes", "quote", Risk.R0).parameters("sku")
        .resultType(String.class).build();
    try (Hfr hfr = engine()) {
      // 500s until the breaker opens, then one more call that it refuses.
      ToolCallException refused = null;
      for (int i = 0; i < 20 && refused == null; i++) {
        ToolCallException e = callIn(hfr, "u" + i, quote,
            failing(() -> new HttpCallException(500, Map.of(), "internal"), () -> {}));
        if ("circuit_open".equals(e.outcome().reason())) {
          refused = e;
        }
      }
      assertThat(refused).as("a call refused by the open breaker").isNotNull();
      assertThat(refused.admitAfter()).isPresent();

      ApplicationFailure failure = FailureMapping.toFailure(refused, time.epochMillis(), false, Duration.ofSeconds(1));

      assertThat(failure.getType()).isEqualTo(HfrFailureTypes.FAILED);
      assertThat(failure.isNonRetryable()).isFalse();
      assertThat(failure.getNextRetryDelay()).as("the cool-down (30 s ± 20 %%)")
          .isBetween(Duration.ofSeconds(20), Duration.ofSeconds(37));
    }
  }

  @Test
  @DisplayName("a 429's Retry-After is a floor under Temporal's own backoff, never a shortcut")
  void retryAfterIsAFloor() {
    ToolDescriptor quote = ToolDescriptor.builder("com.shop.Quotes", "quote", Risk.R0).parameters("sku")
        .resultType(String.class).build();
    try (Hfr hfr = engine()) {
      ToolCallException e = callIn(hfr, "t", quote, failing(
          () -> new HttpCallException(429, Map.of("Retry-After", List.of("1")), "slow down"), () -> {}));

      assertThat(FailureMapping.toFailure(e, time.epochMillis(), false, Duration.ofSeconds(8)).getNextRetryDelay())
          .as("Temporal's 8 s backoff wins over Retry-After: 1").isEqualTo(Duration.ofSeconds(8));
      assertThat(FailureMapping.toFailure(e, time.epochMillis(), false, Duration.ofMillis(100)).getNextRetryDelay())
          .as("Retry-After wins over a shorter backoff").isGreaterThanOrEqualTo(Duration.ofMillis(900));
    }
  }

  @Test
  @DisplayName("an irreversible write whose answer was lost is escalated: HfrEscalated, not retryable, whatever retryUnknownOutcomes says")
  void escalationIsNeverRetryable() {
    ToolDescriptor mail = ToolDescriptor.builder("com.shop.Mail", "send", Risk.R3).parameters("to")
        .resultType(String.class).build();
    int[] sent = {0};
    try (Hfr hfr = engine()) {
      ToolCallException e = callIn(hfr, "t", mail, failing(() -> new HttpTimeoutException("timed out"), () -> sent[0]++));

      ApplicationFailure failure = FailureMapping.toFailure(e, time.epochMillis(), true);

      assertThat(failure.getType()).isEqualTo(HfrFailureTypes.ESCALATED);
      assertThat(failure.isNonRetryable()).isTrue();
      assertThat(sent[0]).isEqualTo(1);
    }
  }

  @Test
  @DisplayName("an idempotent write whose answers were all lost is retryable HfrOutcomeUnknown: the next attempt resends it under its key")
  void unknownIdempotentWriteIsRetryable() {
    ToolDescriptor charge = ToolDescriptor.builder("com.shop.Payments", "charge", Risk.R1)
        .parameters("ref", "key").idempotencyKeyParameter(1).resultType(String.class).build();
    try (Hfr hfr = engine()) {
      ToolCallException e = callIn(hfr, "t", charge, failing(() -> new HttpTimeoutException("timed out"), () -> {}));

      assertThat(e.resendableUnderKey()).isTrue();
      ApplicationFailure failure = FailureMapping.toFailure(e, time.epochMillis(), false);

      assertThat(failure.getType()).isEqualTo(HfrFailureTypes.OUTCOME_UNKNOWN);
      assertThat(failure.isNonRetryable()).isFalse();
    }
  }
}
