package dev.hfr.spring.boot.temporal.payments;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Runs one activity: {@code charge <order>}, {@code task} or {@code task-retried}. */
@WorkflowInterface
public interface PaymentWorkflow {

  @WorkflowMethod
  String run(String op, String arg);
}
