package dev.hfr.junit;

import dev.hfr.runtime.TaskReport;
import java.util.Arrays;
import java.util.List;
import org.assertj.core.api.AbstractAssert;

/**
 * Assertions on a {@link TaskReport}: what the engine did during a task, not just whether it passed.
 * Obtained through {@link HfrAssertions#assertThat(TaskReport)}.
 */
public final class TaskReportAssert extends AbstractAssert<TaskReportAssert, TaskReport> {

  TaskReportAssert(TaskReport actual) {
    super(actual, TaskReportAssert.class);
  }

  /** No side effect was committed twice. */
  public TaskReportAssert hasNoDuplicates() {
    isNotNull();
    if (actual.duplicateSideEffects() != 0) {
      failWithMessage("expected no duplicate side effects in task %s but found %d (%s)",
          actual.taskId(), actual.duplicateSideEffects(), summary());
    }
    return this;
  }

  /** Exactly {@code n} calls were escalated. */
  public TaskReportAssert escalated(int n) {
    return count("escalated calls", actual == null ? 0 : actual.escalated(), n);
  }

  /** Exactly {@code n} accepted results came from a degradation rung. */
  public TaskReportAssert degraded(int n) {
    return count("degraded calls", actual == null ? 0 : actual.degraded(), n);
  }

  /** Exactly {@code n} calls ended in a structured failure. */
  public TaskReportAssert failed(int n) {
    return count("failed calls", actual == null ? 0 : actual.failed(), n);
  }

  /** Exactly {@code n} calls ended with an accepted result. */
  public TaskReportAssert succeeded(int n) {
    return count("succeeded calls", actual == null ? 0 : actual.succeeded(), n);
  }

  /** Exactly {@code n} attempts beyond the first of each call were made. */
  public TaskReportAssert retries(int n) {
    return count("retries", actual == null ? 0 : actual.retryCount(), n);
  }

  /** At most {@code n} retries were made. */
  public TaskReportAssert retriesAtMost(int n) {
    isNotNull();
    if (actual.retryCount() > n) {
      failWithMessage("expected at most %d retries in task %s but found %d (%s)", n, actual.taskId(), actual.retryCount(), summary());
    }
    return this;
  }

  /** No write was left in an unknown or unverified state. */
  public TaskReportAssert hasNoUnverifiedSideEffects() {
    return count("unverified side effects", actual == null ? 0 : actual.unverifiedSideEffects(), 0);
  }

  /** Every call ended with an accepted result. */
  public TaskReportAssert succeeded() {
    isNotNull();
    if (!actual.success()) {
      failWithMessage("expected task %s to succeed but it did not (%s)", actual.taskId(), summary());
    }
    return this;
  }

  /** The tools whose calls failed or were escalated are exactly these, in first-failure order. */
  public TaskReportAssert failedTools(String... tools) {
    isNotNull();
    List<String> expected = Arrays.asList(tools);
    if (!actual.failedTools().equals(expected)) {
      failWithMessage("expected failed tools %s in task %s but were %s", expected, actual.taskId(), actual.failedTools());
    }
    return this;
  }

  private TaskReportAssert count(String what, int found, int expected) {
    isNotNull();
    if (found != expected) {
      failWithMessage("expected %d %s in task %s but found %d (%s)", expected, what, actual.taskId(), found, summary());
    }
    return this;
  }

  private String summary() {
    return "calls=" + actual.calls() + ", succeeded=" + actual.succeeded() + ", failed=" + actual.failed()
        + ", escalated=" + actual.escalated() + ", degraded=" + actual.degraded() + ", attempts=" + actual.attempts()
        + ", retries=" + actual.retryCount() + ", duplicates=" + actual.duplicateSideEffects()
        + ", unverified=" + actual.unverifiedSideEffects() + ", failedTools=" + actual.failedTools();
  }
}
