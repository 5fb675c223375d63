package dev.hfr.bench.stats;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.hfr.bench.metrics.TaskResult;
import dev.hfr.bench.metrics.TaskTable;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The paired bootstrap resamples per-task differences (§6.6.5)")
class PairedBootstrapTest {

  private static TaskResult task(boolean success, double cost, double seconds, int dup) {
    return new TaskResult(success, false, success, dup, cost, (long) (seconds * 1e9), 1, 1, false, -1);
  }

  @Test
  void identicalStrategiesDifferByExactlyNothing() {
    TaskTable a = new TaskTable(10);
    for (int i = 0; i < 10; i++) {
      a.add(task(i % 3 == 0, i, i, 0));
    }
    PairedComparison c = new PairedBootstrap(200, 1).compare("a", a, "b", a);
    assertThat(c.srPp()).isEqualTo(new Estimate(0, 0, 0));
    assertThat(c.meanCost()).isEqualTo(new Estimate(0, 0, 0));
    assertThat(c.meanLatencySeconds()).isEqualTo(new Estimate(0, 0, 0));
  }

  @Test
  void aConstantDifferenceHasADegenerateInterval() {
    TaskTable a = new TaskTable(8);
    TaskTable b = new TaskTable(8);
    for (int i = 0; i < 8; i++) {
      a.add(task(true, 2.0, 3.0, 0));
      b.add(task(false, 1.5, 1.0, 1));
    }
    PairedComparison c = new PairedBootstrap(200, 7).compare("a", a, "b", b);
    assertThat(c.srPp()).isEqualTo(new Estimate(100, 100, 100));
    assertThat(c.meanCost().point()).isCloseTo(0.5, within(1e-12));
    assertThat(c.meanCost().low()).isCloseTo(0.5, within(1e-12));
    assertThat(c.meanLatencySeconds().high()).isCloseTo(2.0, within(1e-12));
    assertThat(c.dupPer1000().point()).isEqualTo(-1000.0);
    assertThat(c.cpsRelative().point()).isNaN(); // b never succeeds: no cost per success to compare with
  }

  @Test
  void theIntervalSurroundsThePointAndExcludesZeroForAClearDifference() {
    TaskTable a = new TaskTable(400);
    TaskTable b = new TaskTable(400);
    for (int i = 0; i < 400; i++) {
      a.add(task(i % 10 != 0, 1, 1, 0)); // 90 %
      b.add(task(i % 2 == 0, 1, 1, 0)); // 50 %
    }
    PairedComparison c = new PairedBootstrap(1000, 3).compare("a", a, "b", b);
    assertThat(c.srPp().point()).isCloseTo(40.0, within(1e-9));
    assertThat(c.srPp().low()).isLessThan(40.0).isGreaterThan(30.0);
    assertThat(c.srPp().high()).isGreaterThan(40.0).isLessThan(50.0);
    assertThat(c.srPp().excludesZero()).isTrue();
    // cost per success: a = 400/360, b = 400/200, relative = 200/360 - 1
    assertThat(c.cpsRelative().point()).isCloseTo(200.0 / 360 - 1, within(1e-12));
  }

  @Test
  void theSameSeedGivesTheSameInterval() {
    TaskTable a = new TaskTable(50);
    TaskTable b = new TaskTable(50);
    for (int i = 0; i < 50; i++) {
      a.add(task(i % 3 != 0, i % 5, i % 7, 0));
      b.add(task(i % 4 != 0, i % 3, i % 2, 0));
    }
    assertThat(new PairedBootstrap(300, 11).compare("a", a, "b", b))
        .isEqualTo(new PairedBootstrap(300, 11).compare("a", a, "b", b));
  }

  @Test
  void percentilesInterpolateBetweenClosestRanks() {
    double[] sorted = {1, 2, 3, 4, 5};
    assertThat(PairedBootstrap.percentile(sorted, 50)).isEqualTo(3.0);
    assertThat(PairedBootstrap.percentile(sorted, 2.5)).isCloseTo(1.1, within(1e-12));
    assertThat(PairedBootstrap.percentile(sorted, 97.5)).isCloseTo(4.9, within(1e-12));
  }

  @Test
  void tablesOfDifferentTasksCannotBePaired() {
    TaskTable a = new TaskTable(1);
    a.add(task(true, 1, 1, 0));
    TaskTable b = new TaskTable(1);
    assertThatThrownBy(() -> new PairedBootstrap(100, 1).compare("a", a, "b", b))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("same");
  }
}
