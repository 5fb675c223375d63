package dev.hfr.bench.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.hfr.annotations.Criticality;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The workload follows Table B1 and is a pure function of seed and task index")
class WorkloadGeneratorTest {

  private final WorkloadParameters params = WorkloadParameters.standard();

  @Test
  void tableB1IsReadFromThePaperFigures() {
    assertThat(params.pFault()).isEqualTo(0.14);
    assertThat(params.modelTiers()).extracting(Tier::success).containsExactly(0.94, 0.86, 0.74);
    assertThat(params.toolTiers()).extracting(Tier::cost).containsExactly(0.10, 0.08, 0.00);
    assertThat(params.retryBudgetPerStep()).isEqualTo(3);
    assertThat(params.retryBudgetPerTask()).isEqualTo(10);
  }

  @Test
  void theSameSeedAndIndexGiveTheSameTask() {
    WorkloadGenerator a = new WorkloadGenerator(params, 42);
    WorkloadGenerator b = new WorkloadGenerator(params, 42);
    for (int i = 0; i < 100; i++) {
      assertThat(a.task(i)).isEqualTo(b.task(i));
    }
    assertThat(new WorkloadGenerator(params, 43).task(5)).isNotEqualTo(a.task(5));
  }

  @Test
  void mixesMatchTheTable() {
    WorkloadGenerator g = new WorkloadGenerator(params, 1);
    int n = 40_000;
    int high = 0;
    int steps = 0;
    int writes = 0;
    int min = Integer.MAX_VALUE;
    int max = 0;
    for (int i = 0; i < n; i++) {
      TaskPlan t = g.task(i);
      high += t.criticality() == Criticality.Level.HIGH ? 1 : 0;
      steps += t.stepCount();
      writes += (int) t.steps().stream().filter(k -> k == StepKind.WRITE_TOOL).count();
      min = Math.min(min, t.stepCount());
      max = Math.max(max, t.stepCount());
    }
    assertThat((double) high / n).isCloseTo(0.20, within(0.01));
    assertThat((double) writes / steps).isCloseTo(0.20, within(0.01));
    assertThat(min).isEqualTo(4);
    assertThat(max).isEqualTo(8);
  }

  @Test
  void drawsAreUniform() {
    double sum = 0;
    int n = 100_000;
    for (int i = 0; i < n; i++) {
      double u = Draws.uniform(9, i, 1, 2, 3, 4);
      assertThat(u).isGreaterThanOrEqualTo(0).isLessThan(1);
      sum += u;
    }
    assertThat(sum / n).isCloseTo(0.5, within(0.01));
  }
}
