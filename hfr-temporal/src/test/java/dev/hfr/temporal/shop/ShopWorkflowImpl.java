package dev.hfr.temporal.shop;

import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.workflow.Workflow;
import java.time.Duration;

/** Temporal's retries, a 3 s start-to-close timeout and at most 5 attempts, as an application would set them. */
public final class ShopWorkflowImpl implements ShopWorkflow {

  private final ShopActivities activities = Workflow.newActivityStub(ShopActivities.class, ActivityOptions.newBuilder()
      .setStartToCloseTimeout(Duration.ofSeconds(3))
      .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(100)).setBackoffCoefficient(1.0)
          .setMaximumAttempts(5).build())
      .build());

  @Override
  public String run(String op, String arg) {
    switch (op) {
      case "order":
        return activities.order(arg, "sku-1");
      case "email":
        return activities.email(arg);
      case "quote":
        return activities.quote(arg);
      case "task":
        return activities.task(false);
      case "task-retried":
        return activities.task(true);
      default:
        throw new IllegalArgumentException("no op " + op);
    }
  }
}
