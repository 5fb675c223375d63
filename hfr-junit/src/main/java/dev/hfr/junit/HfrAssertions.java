package dev.hfr.junit;

import dev.hfr.runtime.TaskReport;

/**
 * Entry point of HFR's test assertions:
 *
 * <pre>{@code
 * HfrAssertions.assertThat(task.report()).hasNoDuplicates().escalated(0).degraded(1);
 * }</pre>
 */
public final class HfrAssertions {

  private HfrAssertions() {}

  public static TaskReportAssert assertThat(TaskReport report) {
    return new TaskReportAssert(report);
  }
}
