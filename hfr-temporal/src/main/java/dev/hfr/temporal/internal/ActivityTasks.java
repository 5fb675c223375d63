package dev.hfr.temporal.internal;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.temporal.HfrWorkerInterceptor;
import io.temporal.activity.ActivityInfo;
import io.temporal.api.common.v1.Payload;
import io.temporal.common.converter.DefaultDataConverter;
import io.temporal.common.interceptors.Header;
import java.time.Duration;

/**
 * Which HFR task an activity attempt belongs to, and with which deadline and limits: the settings of an {@code
 * HfrWorkerInterceptor}, and the one function from an attempt to its {@link TaskSpec}.
 *
 * @param hfr the engine the activities' proxies call
 * @param tenant the tenant of an activity whose header names none
 * @param taskPerRun whether the task id carries the run id
 * @param firstAttempt the limits of an activity's first attempt
 * @param laterAttempts the limits of its later attempts (a smaller retry budget)
 * @param deadlineMargin what the task's deadline leaves of the attempt's remaining time
 * @param criticality the tasks' criticality, {@code null} for the engine's default
 * @param retryUnknownOutcomes whether Temporal may retry an attempt that left a write's outcome unknown
 */
public record ActivityTasks(Hfr hfr, String tenant, boolean taskPerRun, TaskLimits firstAttempt,
    TaskLimits laterAttempts, Duration deadlineMargin, Criticality.Level criticality, boolean retryUnknownOutcomes) {

  /**
   * The task of one activity attempt.
   *
   * @param info the attempt, as Temporal describes it
   * @param header the activity's header, where the tenant may be
   * @param nowEpochMillis the current time
   */
  public TaskSpec spec(ActivityInfo info, Header header, long nowEpochMillis) {
    // One task per workflow execution: its retries (same first run) share it, a new execution under the same
    // workflow id does not. Without the header (a worker without this interceptor's workflow half), the workflow id.
    String execution = ExecutionHeader.of(header);
    String taskId = taskPerRun ? info.getWorkflowId() + "/" + info.getRunId()
        : execution != null ? info.getWorkflowId() + "/" + execution : info.getWorkflowId();
    TaskSpec.Builder spec = TaskSpec.builder(tenantOf(header), taskId)
        .limits(info.getAttempt() <= 1 ? firstAttempt : laterAttempts);
    if (criticality != null) {
      spec.criticality(criticality);
    }
    Duration left = timeLeft(info, nowEpochMillis);
    if (left != null) {
      Duration deadline = left.minus(deadlineMargin);
      // An attempt with less time left than the margin still gets its one try: a deadline must be positive.
      spec.deadline(deadline.compareTo(Duration.ofMillis(1)) < 0 ? Duration.ofMillis(1) : deadline);
    }
    return spec.build();
  }

  private String tenantOf(Header header) {
    Payload payload = header == null ? null : header.getValues().get(HfrWorkerInterceptor.TENANT_HEADER);
    if (payload == null) {
      return tenant;
    }
    String named = DefaultDataConverter.STANDARD_INSTANCE.fromPayload(payload, String.class, String.class);
    return named == null || named.isBlank() ? tenant : named;
  }

  /**
   * What is left of the attempt: its start-to-close timeout from now (the attempt just started), capped by
   * what is left of the schedule-to-close timeout; {@code null} when neither is set.
   */
  static Duration timeLeft(ActivityInfo info, long nowEpochMillis) {
    Duration left = positive(info.getStartToCloseTimeout());
    Duration scheduleToClose = positive(info.getScheduleToCloseTimeout());
    if (scheduleToClose != null && info.getScheduledTimestamp() > 0) {
      Duration rest = Duration.ofMillis(info.getScheduledTimestamp() + scheduleToClose.toMillis() - nowEpochMillis);
      left = left == null || rest.compareTo(left) < 0 ? rest : left;
    }
    return left;
  }

  private static Duration positive(Duration d) {
    return d == null || d.isZero() || d.isNegative() ? null : d;
  }
}
