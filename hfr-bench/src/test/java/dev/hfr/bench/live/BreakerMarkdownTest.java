package dev.hfr.bench.live;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The breaker scenarios' section replaces itself in a report written by a full run")
class BreakerMarkdownTest {

  private static String section(int placed) {
    BreakerResults r = new BreakerResults(1, 10, 2, 30, 4,
        List.of(new BreakerResults.Transient(0.5, BreakerScenarios.HFR, 10, placed, 0, 20, 0)),
        List.of(new BreakerResults.Outage(BreakerScenarios.HFR, 100, 0, 7, 6, 1, 30.2, 0.1, 0.3, 93)),
        List.of(new BreakerResults.Rejected(true, 0.2, BreakerScenarios.HFR_UNDO, 10, 10, 0, 10, 0, 2, 34)), 70.0);
    return new BreakerMarkdown(r, "the command", "now, here").render();
  }

  @Test
  @DisplayName("a report without the section gets it appended; a second run replaces it, keeping what is around it")
  void splice() {
    String report = "# HFR-Bench results\n\nlive tables\n";
    String once = BreakerMarkdown.splice(report, section(9));
    assertThat(once).startsWith(report).contains("| 50 % | HFR (defaults) | 9 / 10 | 0 |");

    String twice = BreakerMarkdown.splice(once + "after\n", section(8));
    assertThat(twice).contains("9 / 10".replace('9', '8')).doesNotContain("9 / 10").endsWith("after\n");
    assertThat(twice.split(BreakerMarkdown.BEGIN, -1)).hasSize(2);
  }

  @Test
  @DisplayName("the rejected-write rows name the case, the strategy and what the service kept; no machine diary")
  void rejectedWriteRows() {
    assertThat(section(9)).contains("| after the order was placed | HFR, order can be cancelled | 10 | 10 | 0 | 10 | 0 | 2 | 34 |")
        .doesNotContain("load average").doesNotContain("issue 12");
  }
}
