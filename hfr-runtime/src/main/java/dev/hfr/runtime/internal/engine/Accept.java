package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.time.Clock;
import java.util.List;

/** ACCEPT (Table 9): the structured success, the task's counters, the meters; the result goes to the caller. */
final class Accept {

  private final HfrFeatures features;
  private final Clock clock;
  private final CallEnd end;
  private final DecisionRecorder decisions;
  private final Oversight oversight;

  Accept(HfrFeatures features, Clock clock, CallEnd end, DecisionRecorder decisions, Oversight oversight) {
    this.features = features;
    this.clock = clock;
    this.end = end;
    this.decisions = decisions;
    this.oversight = oversight;
  }

  <R> R run(Call<R> c) {
    decisions.callEnded(c, true);
    boolean degraded = c.rung >= 0;
    DegradeLevel level = c.rungLevel();
    if (degraded) {
      c.rt.meters.degradationQualityDelta(level, 1.0 - c.quality);
    }
    boolean verificationOwed = c.verificationRequired || (degraded && level.compareTo(DegradeLevel.L3) >= 0 && !features.verification());
    if (c.implicit() && c.key() == null && !degraded && !verificationOwed) {
      // The clean read of a call outside any scope: nobody can ask for its outcome, so none is built, and a task
      // that was never made has nobody to count it for.
      CallTask task = c.taskIfMade();
      if (task != null) {
        task.count(c.tool().name(), ToolOutcome.Status.SUCCESS, false, c.attempts, false);
      }
      c.rt.meters.call(ToolOutcome.Status.SUCCESS, false, endNanos(c) - c.startNanos);
      if (c.policy.humanSpotCheckRate() > 0) {
        oversight.maybeSpotCheck(c, c.rt.meters);
      }
      return c.result;
    }
    if (c.key() != null && !c.replayed() && c.ledgerState() != null && c.ledgerState().isCommitted()) {
      WriteAnswers answers = c.task().answers();
      if (answers != null) {
        answers.remember(c.key(), c.result); // a re-call of this write in the task gets this result, nothing is sent
      }
    }
    List<String> refs = c.key() == null ? List.of() : CallEnd.artifactRefs(c);
    ToolOutcome outcome = new ToolOutcome(c.tool().name(), ToolOutcome.Status.SUCCESS, null, false, c.write(), refs,
        verificationOwed, degraded, level, c.attempts, recoveredReason(c));
    end.finish(c, outcome, c.write() && verificationOwed);
    if (c.policy.humanSpotCheckRate() > 0 && !c.replayed()) { // a replay is no new result to sample
      oversight.maybeSpotCheck(c, c.rt.meters);
    }
    return c.result;
  }

  /**
   * When a read accepted here ended: its last attempt's end plus its verification's time, as on the inline path
   * (both were read at once); the clock only for a call with no attempt reading.
   */
  private long endNanos(Call<?> c) {
    return c.lastAttemptEndNanos != 0 ? c.lastAttemptEndNanos + c.verifyNanos : clock.nanoTime();
  }

  private static String recoveredReason(Call<?> c) {
    if (c.replayed()) {
      return Reason.REPLAYED_FROM_LEDGER.code();
    }
    if (c.alreadyCommitted()) {
      return Reason.ALREADY_COMMITTED.code();
    }
    return c.resultFromReconcile() ? Reason.RECONCILED_COMMITTED.code() : Reason.OK.code();
  }
}
