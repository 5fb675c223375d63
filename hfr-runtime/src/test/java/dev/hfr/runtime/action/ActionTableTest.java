package dev.hfr.runtime.action;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

@DisplayName("The F2D-9 action table")
class ActionTableTest {

  private static final Criticality.Level MEDIUM = Criticality.Level.MEDIUM;

  @ParameterizedTest(name = "{0} on {1} -> {2}")
  @CsvSource({
      "T1, R0, RETRY", "T1, R1, RETRY", "T1, R2, RECONCILE", "T1, R3, FAIL",
      "T2, R0, RETRY", "T2, R1, RETRY", "T2, R2, RETRY", "T2, R3, FAIL",
      "T3, R0, RETRY", "T3, R1, RETRY", "T3, R2, RECONCILE", "T3, R3, ESCALATE",
      "T4, R0, DEGRADE_MODEL", "T4, R2, DEGRADE_MODEL", "T4, R3, FAIL",
      "T5, R0, DEGRADE_TOOL", "T5, R3, FAIL",
      "T6, R0, COMPRESS", "T6, R3, FAIL",
      "T7, R0, FAIL", "T7, R3, FAIL",
      "T8, R0, ESCALATE", "T8, R3, ESCALATE",
      "V1, R0, RETRY", "V1, R1, RECONCILE", "V1, R2, RECONCILE", "V1, R3, ESCALATE",
      "UNCLASSIFIED, R0, RETRY", "UNCLASSIFIED, R1, RECONCILE", "UNCLASSIFIED, R2, RECONCILE", "UNCLASSIFIED, R3, ESCALATE"})
  @DisplayName("maps each class and risk at MEDIUM criticality to its default action")
  void table(Fault fault, Risk risk, Action expected) {
    assertThat(ActionTable.defaultAction(fault, risk, MEDIUM)).isEqualTo(expected);
  }

  @ParameterizedTest
  @EnumSource(Risk.class)
  @DisplayName("escalates unclassified failures and permanent errors at HIGH criticality, whatever the risk")
  void highCriticality(Risk risk) {
    assertThat(ActionTable.defaultAction(Fault.UNCLASSIFIED, risk, Criticality.Level.HIGH)).isEqualTo(Action.ESCALATE);
    assertThat(ActionTable.defaultAction(Fault.T7, risk, Criticality.Level.HIGH)).isEqualTo(Action.ESCALATE);
  }

  @ParameterizedTest
  @EnumSource(Fault.class)
  @DisplayName("never retries an R3 write")
  void neverRetriesR3(Fault fault) {
    assertThat(ActionTable.defaultAction(fault, Risk.R3, MEDIUM)).isNotEqualTo(Action.RETRY);
  }

  @Test
  @DisplayName("counts only refusals before processing as proof that a write was not applied")
  void provesNotApplied() {
    assertThat(ActionTable.provesNotApplied(Fault.T2)).isTrue();
    assertThat(ActionTable.provesNotApplied(Fault.T7)).isTrue();
    assertThat(ActionTable.provesNotApplied(Fault.T1)).isFalse();
    assertThat(ActionTable.provesNotApplied(Fault.T3)).isFalse();
    assertThat(ActionTable.provesNotApplied(Fault.UNCLASSIFIED)).isFalse();
  }
}
