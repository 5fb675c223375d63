package dev.hfr.samples.temporal.workflow;

import dev.hfr.temporal.HfrFailureDetails;
import dev.hfr.temporal.HfrFailureTypes;
import io.temporal.activity.ActivityOptions;
import io.temporal.failure.ActivityFailure;
import io.temporal.failure.ApplicationFailure;
import io.temporal.workflow.Workflow;
import java.time.Duration;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The order workflow with Temporal's default retry policy and a 2 s start-to-close timeout. A step HFR handed to
 * a person (an unknown outcome it could not reconcile, a refusal) waits for the person's decision as a signal,
 * then runs again — HFR reconciles the write before anything is sent — or ends the workflow.
 */
public final class OrderWorkflowImpl implements OrderWorkflow {

  /** HFR's outcomes that need a person; Temporal does not retry them. */
  private static final Set<String> FOR_A_PERSON =
      Set.of(HfrFailureTypes.OUTCOME_UNKNOWN, HfrFailureTypes.ESCALATED, HfrFailureTypes.REFUSED);

  private final OrderActivities activities = Workflow.newActivityStub(OrderActivities.class,
      ActivityOptions.newBuilder().setStartToCloseTimeout(Duration.ofSeconds(2)).build());

  private int escalations;
  private String waitingFor;
  private String decision;

  @Override
  public String place(String sku) {
    String ref = Workflow.getInfo().getWorkflowId();
    step("search", () -> activities.search(sku));
    step("createOrder", () -> activities.createOrder(ref, sku));
    step("charge", () -> activities.charge(ref, 2900));
    return step("sendEmail", () -> activities.sendEmail(ref, "customer@example.com"));
  }

  // tag::step[]
  private String step(String name, Supplier<String> activity) {
    while (true) {
      try {
        return activity.get();
      } catch (ActivityFailure failure) {
        if (!(failure.getCause() instanceof ApplicationFailure cause) || !FOR_A_PERSON.contains(cause.getType())) {
          throw failure;
        }
        HfrFailureDetails hfr = cause.getDetails().get(HfrFailureDetails.class);
        escalations++;
        waitingFor = "#" + escalations + " " + name + ": " + cause.getType() + " " + hfr.reason() + " ledger key " + hfr.ledgerKey();
        activities.askPerson(Workflow.getInfo().getWorkflowId(), waitingFor);
        Workflow.await(() -> decision != null);
        String decided = decision;
        decision = null;
        waitingFor = null;
        if (!"retry".equals(decided)) {
          throw ApplicationFailure.newNonRetryableFailure(name + " abandoned by a person", "Abandoned");
        }
      }
    }
  }
  // end::step[]

  @Override
  public String waitingFor() {
    return waitingFor;
  }

  @Override
  public void decide(String decision) {
    this.decision = decision;
  }
}
