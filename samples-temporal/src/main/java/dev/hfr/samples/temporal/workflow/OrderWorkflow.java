package dev.hfr.samples.temporal.workflow;

import io.temporal.workflow.QueryMethod;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Search, create the order, charge it, send the confirmation. */
@WorkflowInterface
public interface OrderWorkflow {

  /** Places an order for {@code sku} under the workflow id as its reference; returns the e-mail's id. */
  @WorkflowMethod
  String place(String sku);

  /** What the workflow waits for a person to decide about, or {@code null}. */
  @QueryMethod
  String waitingFor();

  /** A person's decision on the step it waits for: {@code retry} or {@code abandon}. */
  @SignalMethod
  void decide(String decision);
}
