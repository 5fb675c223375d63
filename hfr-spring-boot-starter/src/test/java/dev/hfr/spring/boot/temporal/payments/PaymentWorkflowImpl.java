package dev.hfr.spring.boot.temporal.payments;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** Temporal's retries, a 3 s start-to-close timeout and at most 3 attempts, as an application would set them. */
public class PaymentWorkflowImpl implements PaymentWorkflow {

  private static final ActivityOptions OPTIONS = ActivityOptions.newBuilder()
      .setStartToCloseTimeout(Duration.ofSeconds(3))
      .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(100))
          .setBackoffCoefficient(1.0).setMaximumAttempts(3).build())
      .build();

  private final PaymentActivities payments = Workflow.newActivityStub(PaymentActivities.class, OPTIONS);
  private final TaskActivities tasks = Workflow.newActivityStub(TaskActivities.class, OPTIONS);

  @Override
  public String run(String op, String arg) {
    return switch (op) {
      case "charge" -> payments.charge(arg, 4200);
      case "task" -> tasks.task(false);
      case "task-retried" -> tasks.task(true);
      default -> throw new IllegalArgumentException("no op " + op);
    };
  }
}
