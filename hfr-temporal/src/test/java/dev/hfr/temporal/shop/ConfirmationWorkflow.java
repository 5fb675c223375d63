package dev.hfr.temporal.shop;

import dev.hfr.temporal.InboxAnswered;
import dev.hfr.temporal.InboxSignals;
import io.temporal.workflow.SignalMethod;
import io.temporal.workflow.WorkflowInterface;
import io.temporal.workflow.WorkflowMethod;

/** Sends an order's confirmation e-mail, waiting for a person when HFR hands the e-mail to one. */
@WorkflowInterface
public interface ConfirmationWorkflow {

  @WorkflowMethod
  String confirm(String ref);

  @SignalMethod(name = InboxSignals.SIGNAL)
  void inboxAnswered(InboxAnswered answer);
}
