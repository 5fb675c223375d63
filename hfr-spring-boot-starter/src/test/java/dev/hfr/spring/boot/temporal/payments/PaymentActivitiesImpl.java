package dev.hfr.spring.boot.temporal.payments;

import io.temporal.activity.Activity;
import java.io.IOException;
import org.springframework.stereotype.Component;

// tag::activity[]
/** The activity as a Temporal user writes it in Spring: a bean given the tool bean, nothing of HFR's. */
@Component
public class PaymentActivitiesImpl implements PaymentActivities {

  private final PaymentTools tools;   // the generated PaymentTools_Recovering

  public PaymentActivitiesImpl(PaymentTools tools) {
    this.tools = tools;
  }

  @Override
  public String charge(String order, long cents) {
    try {
      return tools.charge(order, cents, null);   // HFR fills in the idempotency key
    } catch (IOException | InterruptedException e) {
      throw Activity.wrap(e);
    }
  }
}
// end::activity[]
