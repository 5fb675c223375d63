package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.DegradeLevel;

/**
 * DEGRADE (Table 9): moves to the rung DECIDE chose (already charged to the step's budget); a new target
 * starts a new attempt history, so streaks against the old one do not carry over. A write found absent is
 * prepared again first, as for a retry.
 */
final class Degrade {

  private final RejectedWrite rejectedWrites;

  Degrade(RejectedWrite rejectedWrites) {
    this.rejectedWrites = rejectedWrites;
  }

  <R> Next run(Call<R> c) {
    Next refused = rejectedWrites.prepareAgain(c);
    if (refused != null) {
      return refused;
    }
    DegradeLevel level = c.tool().degradeLadder().get(c.nextRung).level();
    c.rt.meters.degradation(level, c.fault);
    c.reportBreakerFailure();
    c.rung = c.nextRung;
    c.resetHistory();
    c.classification = null;
    c.admitAfterMillis = -1; // what refused the old target says nothing about the rung
    return Next.to(ControllerState.RUN_STEP);
  }
}
