package dev.hfr.temporal.shop;

import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Runs one activity of {@link ShopActivities}, named by {@code op}. */
@WorkflowInterface
public interface ShopWorkflow {

  @WorkflowMethod
  String run(String op, String arg);
}
