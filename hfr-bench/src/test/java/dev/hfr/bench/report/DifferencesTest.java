package dev.hfr.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The ordering check covers every pair and reports ties as ties")
class DifferencesTest {

  private static Differences.Row row(String name, double ours, double paper) {
    return new Differences.Row(name, ours, paper, List.of());
  }

  @Test
  void aPairThePaperTiesButWeOrderIsReportedNotSkipped() {
    // The paper's HFR and FixedRetry3 are 0.08 pp apart (a tie); ours are 1.96 pp apart the other way.
    Differences.Ordering o = Differences.ordering(List.of(row("HFR", 78.02, 86.25), row("FixedRetry3", 79.98, 86.17),
        row("NoRetry", 27.03, 25.61)), 1.0);
    assertThat(o.pairs()).isEqualTo(3);
    assertThat(o.sameOrder()).isEqualTo(2);
    assertThat(o.tiedOnlyByPaper()).singleElement().asString().contains("HFR vs FixedRetry3");
    assertThat(o.sentence(1.0, "pp")).contains("Of all 3 pairs", "1 tied by the paper but ordered by us");
  }

  @Test
  void tiesOnBothSidesAndReversalsAreCountedApart() {
    Differences.Ordering o = Differences.ordering(List.of(row("a", 10, 10.5), row("b", 10.2, 10), row("c", 5, 2)), 1.0);
    assertThat(o.bothTied()).isEqualTo(1);
    assertThat(o.reversed()).isEmpty();
    assertThat(o.sameOrder()).isEqualTo(2);
    Differences.Ordering r = Differences.ordering(List.of(row("a", 10, 20), row("b", 20, 10)), 1.0);
    assertThat(r.reversed()).hasSize(1);
  }
}
