package dev.hfr.runtime.budget;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Label;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("BudgetAllocator: B_i = floor(B'·w_i/Σw), w_i = c_i·ρ_i, with a reserve for the last step")
class BudgetAllocatorTest {

  @Test
  @DisplayName("critical, recoverable steps get more; the reserve goes to the last step")
  void weightsAndReserve() {
    int[] shares = BudgetAllocator.allocate(10, new double[] {1, 3, 1}, new double[] {1.0, 1.0, 0.0}, 2);
    // B' = 8; weights 1, 3, 0 -> floor(2), floor(6), 0; the last step gets the reserve 2.
    assertThat(shares).containsExactly(2, 6, 2);
  }

  @Test
  @DisplayName("all weights zero: only the reserve is handed out")
  void zeroWeights() {
    assertThat(BudgetAllocator.allocate(5, new double[] {0, 0}, new double[] {1, 1}, 1)).containsExactly(0, 1);
  }

  @Test
  @DisplayName("bad arguments are refused by name")
  void refusesBadArguments() {
    assertThatThrownBy(() -> BudgetAllocator.allocate(-1, new double[] {1}, new double[] {1}, 0)).hasMessageContaining("taskBudget");
    assertThatThrownBy(() -> BudgetAllocator.allocate(1, new double[] {}, new double[] {}, 0)).hasMessageContaining("criticality");
    assertThatThrownBy(() -> BudgetAllocator.allocate(1, new double[] {1}, new double[] {1, 1}, 0)).hasMessageContaining("recoverability");
    assertThatThrownBy(() -> BudgetAllocator.allocate(1, new double[] {1}, new double[] {1}, 2)).hasMessageContaining("reserveForLastStep");
    assertThatThrownBy(() -> BudgetAllocator.allocate(1, new double[] {-1}, new double[] {1}, 0)).hasMessageContaining("criticality[0]");
    assertThatThrownBy(() -> BudgetAllocator.allocate(1, new double[] {1}, new double[] {1.5}, 0)).hasMessageContaining("recoverability[0]");
  }

  @Property(tries = 300)
  @Label("shares are never negative, add up to at most B_t, and the last step keeps at least the reserve")
  void sharesNeverExceedTheBudget(
      @ForAll @IntRange(min = 0, max = 1_000) int budget,
      @ForAll @Size(min = 1, max = 30) List<@DoubleRange(min = 0, max = 100) Double> weights,
      @ForAll @IntRange(min = 0, max = 1_000) int reserveSeed) {
    double[] criticality = weights.stream().mapToDouble(Double::doubleValue).toArray();
    double[] rho = new double[criticality.length];
    Arrays.fill(rho, 0.7);
    int reserve = Math.min(budget, reserveSeed);
    int[] shares = BudgetAllocator.allocate(budget, criticality, rho, reserve);
    assertThat(shares).hasSize(criticality.length);
    assertThat(Arrays.stream(shares).sum()).isLessThanOrEqualTo(budget);
    assertThat(Arrays.stream(shares).min().getAsInt()).isNotNegative();
    assertThat(shares[shares.length - 1]).isGreaterThanOrEqualTo(reserve);
  }
}
