package dev.hfr.temporal.shop;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskSpec;
import io.temporal.activity.Activity;

/**
 * The activities as a Temporal user writes them: they call the tools and nothing else. Given the generated
 * {@code ShopTools_Recovering}, every call goes through HFR; the task is the interceptor's business.
 */
public final class ShopActivitiesImpl implements ShopActivities {

  private final ShopTools tools;
  private final Hfr hfr;

  public ShopActivitiesImpl(ShopTools tools, Hfr hfr) {
    this.tools = tools;
    this.hfr = hfr;
  }

  @Override
  public String order(String ref, String sku) {
    try {
      String order = tools.createOrder(ref, sku);
      return order + " " + tools.charge(ref, 4200, null);
    } catch (java.io.IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String email(String ref) {
    try {
      return tools.sendEmail(ref, "your order " + ref);
    } catch (java.io.IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String quote(String sku) {
    try {
      return tools.quote(sku);
    } catch (java.io.IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public String task(boolean failFirst) {
    if (failFirst && Activity.getExecutionContext().getInfo().getAttempt() == 1) {
      throw new IllegalStateException("the first attempt fails");
    }
    TaskSpec spec = hfr.currentTask().orElseThrow().spec();
    return spec.tenant() + "|" + spec.taskId() + "|" + (spec.deadline() == null ? "none" : spec.deadline().toMillis())
        + "|" + spec.criticality() + "|" + spec.limits().maxRetries();
  }
}
