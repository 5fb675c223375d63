package dev.hfr.samples.temporal.workflow;

import io.temporal.activity.ActivityInterface;

/** The order workflow's activities, one per tool. */
@ActivityInterface
public interface OrderActivities {

  String search(String sku);

  String createOrder(String ref, String sku);

  String charge(String ref, long cents);

  String sendEmail(String ref, String to);

  /** Puts a question to a person at the operations desk; the answer comes as a signal. */
  void askPerson(String ref, String question);
}
