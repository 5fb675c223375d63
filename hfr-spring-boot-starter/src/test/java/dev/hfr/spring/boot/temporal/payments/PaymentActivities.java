package dev.hfr.spring.boot.temporal.payments;

import io.temporal.activity.ActivityInterface;

/** The activity of the test workflow. */
@ActivityInterface
public interface PaymentActivities {

  /** Charges an order. */
  String charge(String order, long cents);
}
