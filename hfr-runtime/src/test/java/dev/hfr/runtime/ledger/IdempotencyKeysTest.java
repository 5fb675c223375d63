package dev.hfr.runtime.ledger;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import java.math.BigDecimal;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("IdempotencyKeys: SHA-256 over tenant ‖ task ‖ tool ‖ canonical(args) ‖ occurrence, or a named step")
class IdempotencyKeysTest {

  record Charge(String card, BigDecimal amount) {}

  @Test
  @DisplayName("the same logical action always gets the same 64-hex-digit key")
  void stable() {
    String k1 = IdempotencyKeys.key("acme", "task-1", "Payments.charge", List.of(new Charge("c", new BigDecimal("10.00"))), 3);
    String k2 = IdempotencyKeys.key("acme", "task-1", "Payments.charge", List.of(Map.of("amount", 10, "card", "c")), 3);
    assertThat(k1).isEqualTo(k2).matches("[0-9a-f]{64}");
  }

  @Test
  @DisplayName("every field changes the key")
  void everyFieldCounts() {
    List<Object> args = List.of("x", 1);
    Set<String> keys = new HashSet<>(List.of(
        IdempotencyKeys.key("acme", "t", "Tool.m", args, 0),
        IdempotencyKeys.key("globex", "t", "Tool.m", args, 0),
        IdempotencyKeys.key("acme", "u", "Tool.m", args, 0),
        IdempotencyKeys.key("acme", "t", "Tool.m", args, 1),
        IdempotencyKeys.key("acme", "t", "Tool.n", args, 0),
        IdempotencyKeys.key("acme", "t", "Tool.m", List.of("x", 2), 0),
        IdempotencyKeys.keyForStep("acme", "t", "step-1", "Tool.m", args),
        IdempotencyKeys.keyForStep("acme", "t", "step-2", "Tool.m", args),
        IdempotencyKeys.legacyStepKey("acme", "t", 0, "Tool.m", args)));
    assertThat(keys).hasSize(9);
  }

  @Test
  @DisplayName("fields are length-prefixed, so moving characters between fields gives another key")
  void concatenationIsUnambiguous() {
    assertThat(IdempotencyKeys.key("ab", "c", "T", List.of(), 0))
        .isNotEqualTo(IdempotencyKeys.key("a", "bc", "T", List.of(), 0));
    assertThat(IdempotencyKeys.key("a", "b", "Tx", List.of(), 0))
        .isNotEqualTo(IdempotencyKeys.key("a", "b", "T", List.of("x"), 0));
  }

  @Test
  @DisplayName("a negative occurrence and a blank step id are refused")
  void badOccurrenceOrStep() {
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IdempotencyKeys.key("a", "t", "T", List.of(), -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("occurrence");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> IdempotencyKeys.keyForStep("a", "t", " ", "T", List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stepId");
  }

  @Test
  @DisplayName("argsHash and resultHash are hex SHA-256 of the canonical form and differ from the key")
  void hashes() {
    assertThat(IdempotencyKeys.argsHash(List.of(1, "a"))).isEqualTo(IdempotencyKeys.argsHash(List.of(1.0, "a"))).hasSize(64);
    assertThat(IdempotencyKeys.argsHash(List.of(1))).isNotEqualTo(IdempotencyKeys.argsHash(List.of(2)));
    assertThat(IdempotencyKeys.resultHash(Map.of("id", 1))).hasSize(64).isNotEqualTo(IdempotencyKeys.argsHash(List.of(Map.of("id", 1))));
  }

  @Test
  @DisplayName("the @IdempotencyKey parameter is not part of the intent")
  void argumentsSkipTheKeyParameter() {
    ToolDescriptor tool = ToolDescriptor.builder("com.acme.Payments", "charge", Risk.R1)
        .parameters("card", "amount", "idempotencyKey").idempotencyKeyParameter(2).build();
    ToolInvocation<String> call = new ToolInvocation<>() {
      private final Object[] args = {"card-1", 10, null};

      @Override
      public String proceed(String idempotencyKey) {
        return "ok";
      }

      @Override
      public int argumentCount() {
        return args.length;
      }

      @Override
      public Object argument(int index) {
        return args[index];
      }
    };

    assertThat(IdempotencyKeys.arguments(tool, call)).containsExactly("card-1", 10);
  }
}
