package dev.hfr.temporal.shop;

import dev.hfr.temporal.HfrFailureDetails;
import dev.hfr.temporal.HfrFailureTypes;
import dev.hfr.temporal.InboxAnswered;
import io.temporal.activity.ActivityOptions;
import io.temporal.common.RetryOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

/**
 * The e-mail activity; when HFR escalates it (its outcome is unknown), the workflow waits for the person's answer
 * from the inbox and calls the activity again, which then gets that answer.
 */
public final class ConfirmationWorkflowImpl implements ConfirmationWorkflow {

  private final ShopActivities activities = Workflow.newActivityStub(ShopActivities.class, ActivityOptions.newBuilder()
      .setStartToCloseTimeout(Duration.ofSeconds(3))
      .setRetryOptions(RetryOptions.newBuilder().setInitialInterval(Duration.ofMillis(100)).setMaximumAttempts(3).build())
      .build());
  private final Map<String, InboxAnswered> answers = new HashMap<>();

  @Override
  public String confirm(String ref) {
    while (true) {
      try {
        return activities.email(ref);
      } catch (ActivityFailure failure) {
        if (!(failure.getCause() instanceof ApplicationFailure app) || !(HfrFailureTypes.OUTCOME_UNKNOWN.equals(app.getType())
            || HfrFailureTypes.ESCALATED.equals(app.getType()))) {
          throw failure;
        }
        String key = app.getDetails().get(HfrFailureDetails.class).ledgerKey();
        Workflow.await(() -> answers.containsKey(key));   // a person answers in the inbox; no activity retries meanwhile
      }
    }
  }

  @Override
  public void inboxAnswered(InboxAnswered answer) {
    answers.put(answer.ledgerKey(), answer);
  }
}
