package dev.hfr.spring.boot.temporal.payments;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskSpec;
import io.temporal.activity.Activity;
import org.springframework.stereotype.Component;

/** Reads the HFR task the interceptor opened around the attempt. */
@Component
public class TaskActivitiesImpl implements TaskActivities {

  private final Hfr hfr;

  public TaskActivitiesImpl(Hfr hfr) {
    this.hfr = hfr;
  }

  @Override
  public String task(boolean failFirst) {
    if (failFirst && Activity.getExecutionContext().getInfo().getAttempt() == 1) {
      throw new IllegalStateException("the first attempt fails");
    }
    TaskSpec spec = hfr.currentTask().orElseThrow(() -> new IllegalStateException("no HFR task")).spec();
    return spec.tenant() + "|" + spec.taskId() + "|" + (spec.deadline() == null ? "none" : spec.deadline().toMillis())
        + "|" + spec.criticality() + "|" + spec.limits().maxRetries();
  }
}
