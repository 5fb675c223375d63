package dev.hfr.runtime.internal.degrade;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.action.Action;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The degradation ladder")
class DegradationLadderTest {

  private static final Set<DegradeLevel> MEDIUM = EnumSet.of(DegradeLevel.L1, DegradeLevel.L2, DegradeLevel.L3);
  private static final Set<DegradeLevel> HIGH = EnumSet.of(DegradeLevel.L1, DegradeLevel.L2);

  private final ToolDescriptor model = ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0).parameters("p")
      .degradeTo("summarised", DegradeLevel.L1, Risk.R0)
      .degradeTo("backupModel", DegradeLevel.L2, Risk.R0)
      .degradeTo("smallModel", DegradeLevel.L3, Risk.R0)
      .degradeTo("template", DegradeLevel.L4, Risk.R0)
      .build();

  @Test
  @DisplayName("takes the rungs in order within the levels the criticality allows")
  void inOrderWithinAllowedLevels() {
    assertThat(DegradationLadder.next(model, -1, Fault.T4, MEDIUM)).isZero();
    assertThat(DegradationLadder.next(model, 0, Fault.T4, MEDIUM)).isEqualTo(1);
    assertThat(DegradationLadder.next(model, 1, Fault.T4, MEDIUM)).isEqualTo(2);
    assertThat(DegradationLadder.next(model, 2, Fault.T4, MEDIUM)).isEqualTo(DegradationLadder.NONE);
    assertThat(DegradationLadder.next(model, 1, Fault.T4, HIGH)).isEqualTo(DegradationLadder.NONE);
  }

  @Test
  @DisplayName("names the rung a human must approve when the criticality stops the ladder")
  void blockedRungIsNamed() {
    assertThat(DegradationLadder.blockedByCriticality(model, 1, Fault.T4, HIGH)).isEqualTo(2);
  }

  @Test
  @DisplayName("never degrades around a policy refusal (T8) or an irreversible write")
  void neverAroundRefusalsOrR3() {
    assertThat(DegradationLadder.next(model, -1, Fault.T8, MEDIUM)).isEqualTo(DegradationLadder.NONE);
    assertThat(DegradationLadder.blockedByCriticality(model, -1, Fault.T8, HIGH)).isEqualTo(DegradationLadder.NONE);
    ToolDescriptor mail = ToolDescriptor.builder("com.acme.Mail", "send", Risk.R3).parameters("to")
        .degradeTo("queue", DegradeLevel.L2, Risk.R3).build();
    assertThat(DegradationLadder.next(mail, -1, Fault.T1, MEDIUM)).isEqualTo(DegradationLadder.NONE);
  }

  @Test
  @DisplayName("skips a rung riskier than its source")
  void skipsRiskierRungs() {
    ToolDescriptor read = ToolDescriptor.builder("com.acme.Search", "search", Risk.R0).parameters("q")
        .degradeTo("searchAndCache", DegradeLevel.L2, Risk.R1)
        .degradeTo("cached", DegradeLevel.L3, Risk.R0).build();
    assertThat(DegradationLadder.next(read, -1, Fault.T5, MEDIUM)).isEqualTo(1);
  }

  @Test
  @DisplayName("prefers an L1 rung (compressed context) after a context overflow")
  void prefersL1AfterOverflow() {
    ToolDescriptor d = ToolDescriptor.builder("com.acme.Llm", "complete", Risk.R0).parameters("p")
        .degradeTo("shortPrompt", DegradeLevel.L1, Risk.R0).build();
    assertThat(DegradationLadder.next(d, -1, Fault.T6, MEDIUM)).isZero();
    assertThat(DegradationLadder.actionFor(model.degradeLadder().get(1), Fault.T4)).isEqualTo(Action.DEGRADE_MODEL);
    assertThat(DegradationLadder.actionFor(model.degradeLadder().get(1), Fault.T5)).isEqualTo(Action.DEGRADE_TOOL);
    assertThat(DegradationLadder.actionFor(model.degradeLadder().get(3), Fault.T1)).isEqualTo(Action.DEGRADE_SCOPE);
  }
}
