package dev.hfr.spring.boot.temporal.payments;

import io.temporal.activity.ActivityInterface;

/** A probe of the HFR task an activity runs in. */
@ActivityInterface
public interface TaskActivities {

  /**
   * The task: {@code tenant|task id|deadline in ms|criticality|retry budget}; with {@code failFirst} the first
   * attempt fails, so the answer is the second attempt's.
   */
  String task(boolean failFirst);
}
