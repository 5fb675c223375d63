package dev.hfr.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Fault;
import dev.hfr.junit.internal.FaultPlan;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("A fault plan is checked before the test runs")
class FaultPlanTest {

  @InjectFault(tool = "Warehouse.ship", call = 2, times = 2, fault = Fault.T1)
  @InjectFault(tool = "Warehouse.ship", call = 3, fault = Fault.T4)
  void overlapping() {}

  @InjectFault(tool = "Warehouse.ship", fault = Fault.V1)
  void verifierFault() {}

  @InjectFault(tool = "ship", fault = Fault.T1)
  void unqualifiedTool() {}

  @InjectFault(tool = "Warehouse.ship", call = 2, times = 2, fault = Fault.T1)
  void secondAndThird() {}

  private static List<InjectFault> on(String method) throws NoSuchMethodException {
    return List.of(FaultPlanTest.class.getDeclaredMethod(method).getAnnotationsByType(InjectFault.class));
  }

  @Test
  void overlappingFaultsOnOneToolAreRefused() {
    assertThatThrownBy(() -> FaultPlan.of(on("overlapping"))).hasMessageContaining("overlaps");
  }

  @Test
  void v1CannotBeInjectedAsATransportFailure() {
    assertThatThrownBy(() -> FaultPlan.of(on("verifierFault"))).hasMessageContaining("verifier");
  }

  @Test
  void toolNamesAreClassDotMethod() {
    assertThatThrownBy(() -> FaultPlan.of(on("unqualifiedTool"))).hasMessageContaining("SimpleClassName.method");
  }

  @Test
  void aToolThatDoesNotExistIsRefusedWithTheKnownNames() throws Exception {
    FaultPlan plan = FaultPlan.of(on("secondAndThird"));
    assertThatThrownBy(() -> plan.requireKnownTools(List.of("Warehouse.stock", "Warehouse.shipp")))
        .hasMessageContaining("@InjectFault(tool = \"Warehouse.ship\") names no HFR tool")
        .hasMessageContaining("known tools: Warehouse.shipp, Warehouse.stock");
  }

  @Test
  void aPlanOnAnEmptyRegistrySaysTheProcessorIsMissing() throws Exception {
    FaultPlan plan = FaultPlan.of(on("secondAndThird"));
    assertThatThrownBy(() -> plan.requireKnownTools(List.of())).hasMessageContaining("hfr-processor");
  }

  @Test
  void callsAreCountedPerTool() throws Exception {
    FaultPlan plan = FaultPlan.of(on("secondAndThird"));
    assertThat(plan.onCall("Warehouse.ship")).isNull();
    assertThat(plan.onCall("Warehouse.stock")).isNull();
    assertThat(plan.onCall("Warehouse.ship").fault()).isEqualTo(Fault.T1);
    assertThat(plan.onCall("Warehouse.ship").fault()).isEqualTo(Fault.T1);
    assertThat(plan.onCall("Warehouse.ship")).isNull();
    assertThat(plan.injected()).extracting(FaultPlan.Injected::call).containsExactly(2, 3);
  }
}
