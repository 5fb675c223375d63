package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.DegradeLevel;

/**
 * DEGRADE (Table 9): moves to the rung DECIDE chose (already charged to the step's budget); a new target
 * starts a new attempt history, so streaks against the old one do not carry over.
 */
final class Degrade {

  <R> Next run(Call<R> c) {
    DegradeLevel level = c.tool.degradeLadder().get(c.nextRung).level();
    c.rt.meters.degradation(level, c.fault);
    c.reportBreakerFailure();
    c.rung = c.nextRung;
    c.resetHistory();
    c.classification = null;
    return Next.to(ControllerState.RUN_STEP);
  }
}
