package dev.hfr.runtime.internal.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.budget.TaskLimit;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Admission: a read's step number and refusal in one long")
class AdmissionTest {

  @Test
  @DisplayName("an admitted read keeps its step and has no refusal")
  void admitted() {
    long a = Admission.of(42, null);
    assertThat(Admission.step(a)).isEqualTo(42);
    assertThat(Admission.refusal(a)).isNull();
  }

  @Test
  @DisplayName("every limit that can refuse a read comes back with the step, up to steps far beyond any task's")
  void refused() {
    long[] steps = {1, 2, 4_000, Integer.MAX_VALUE, 1L << 40};
    for (TaskLimit limit : TaskLimit.values()) {
      for (long step : steps) {
        long a = Admission.of(step, limit);
        assertThat(Admission.step(a)).as("%s at step %d", limit, step).isEqualTo(step);
        assertThat(Admission.refusal(a)).isEqualTo(limit);
      }
    }
  }
}
