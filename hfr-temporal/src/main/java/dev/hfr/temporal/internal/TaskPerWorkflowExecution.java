package dev.hfr.temporal.internal;

import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolCallException;
import io.temporal.activity.ActivityExecutionContext;
import io.temporal.activity.ActivityInfo;
import io.temporal.common.RetryOptions;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptor;
import io.temporal.common.interceptors.ActivityInboundCallsInterceptorBase;
import java.time.Duration;

/**
 * Binds the workflow execution's HFR task around one activity attempt, and ends the attempt with Temporal's
 * failure for HFR's decision ({@link FailureMapping}). A failure that is not HFR's passes through unchanged.
 */
public final class TaskPerWorkflowExecution extends ActivityInboundCallsInterceptorBase {

  private final ActivityTasks tasks;
  private ActivityExecutionContext context;

  /**
   * @param next the rest of the chain
   * @param tasks the interceptor's settings
   */
  public TaskPerWorkflowExecution(ActivityInboundCallsInterceptor next, ActivityTasks tasks) {
    super(next);
    this.tasks = tasks;
  }

  @Override
  public void init(ActivityExecutionContext context) {
    this.context = context;
    super.init(context);
  }

  @Override
  public ActivityOutput execute(ActivityInput input) {
    try (TaskScope task = tasks.hfr().openTask(tasks.spec(context.getInfo(), input.getHeader(), System.currentTimeMillis()))) {
      return super.execute(input);
    } catch (RuntimeException e) {
      ToolCallException call = FailureMapping.find(e);
      if (call == null) {
        throw e;
      }
      throw FailureMapping.toFailure(call, System.currentTimeMillis(), tasks.retryUnknownOutcomes(),
          temporalBackoff(context.getInfo()));
    }
  }

  /**
   * The delay Temporal's retry policy gives the attempt after this one: initial interval × coefficient^(attempt − 1),
   * capped at the maximum interval (Temporal's defaults where the activity sets none: 1 s, 2, 100 × initial).
   */
  static Duration temporalBackoff(ActivityInfo info) {
    RetryOptions options = info.getRetryOptions();
    Duration initial = options == null || options.getInitialInterval() == null ? Duration.ofSeconds(1) : options.getInitialInterval();
    double coefficient = options == null || options.getBackoffCoefficient() < 1 ? 2.0 : options.getBackoffCoefficient();
    Duration max = options == null || options.getMaximumInterval() == null ? initial.multipliedBy(100) : options.getMaximumInterval();
    double millis = initial.toMillis() * Math.pow(coefficient, Math.max(0, info.getAttempt() - 1));
    return Duration.ofMillis((long) Math.min(millis, max.toMillis()));
  }
}
