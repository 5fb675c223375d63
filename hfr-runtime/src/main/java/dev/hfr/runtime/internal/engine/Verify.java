package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.telemetry.ToolMeters;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.verify.ResultVerification;
import dev.hfr.runtime.verify.Verdict;

/**
 * VERIFY (Table 9): V0 always, then the method's level (stricter on high rungs, Table 5), then the
 * quality floor. An accepted result of a write is checkpointed COMMITTED, then goes to ACCEPT; a rejection
 * is a V1 fault and goes back to CHECK (a write's is reconciled there, {@link RejectedWrite}) — or to
 * escalation when the result is of a write an earlier call committed, which this call must not touch.
 */
final class Verify {

  private static final Classification[] REJECTED = rejected();

  private final HfrFeatures features;
  private final ResultVerification verification;
  private final Clock clock;
  private final Decide decide;
  private final WriteLedger writes;

  Verify(HfrFeatures features, ResultVerification verification, Clock clock, Decide decide, WriteLedger writes) {
    this.features = features;
    this.verification = verification;
    this.clock = clock;
    this.decide = decide;
    this.writes = writes;
  }

  /** The classification of a result rejected at {@code level}. */
  static Classification rejectedAt(VerifyLevel level) {
    return REJECTED[level.ordinal()];
  }

  <R> Next run(Call<R> c) {
    if (!features.verification()) {
      writes.commitReturned(c);
      return Next.to(ControllerState.ACCEPT);
    }
    VerifyLevel level = levelOf(c);
    if (level == VerifyLevel.V0) {
      // The built-in transport check takes nanoseconds: not worth two clock readings.
      c.verifyNanos = 0;
      return verified(c, level, verification.verify(c.tool(), level, c.result));
    }
    // A read comes straight from its attempt; a write's ledger checkpoint came in between.
    long t0 = c.key() == null ? c.lastAttemptEndNanos : clock.nanoTime();
    ResultVerification.Result v = verification.verify(c.tool(), level, c.result);
    c.verifyNanos = clock.nanoTime() - t0;
    return verified(c, level, v);
  }

  /** The rest of VERIFY once the verification at {@code level} answered {@code v}. */
  <R> Next verified(Call<R> c, VerifyLevel level, ResultVerification.Result v) {
    if (v.accepted()) {
      c.quality = v.verdict().quality();
      c.verificationRequired = v.verificationRequired();
      double floor = Double.isNaN(c.taskQualityFloor()) ? c.policy.qualityFloor() : c.taskQualityFloor();
      // The result passed: the tool's answer confirms the write (a low quality does not undo it).
      writes.commitReturned(c);
      if (c.quality >= floor) {
        return Next.to(ControllerState.ACCEPT);
      }
      c.rt.meters.verificationFailure(level, ToolMeters.VerificationFailure.BELOW_QUALITY_FLOOR);
      c.lastRejection = v.verdict();
      c.classification = rejectedAt(level);
      c.fault = Fault.V1;
      c.history().recordFailure(Fault.V1, true);
      return decide.fallback(c, Reason.QUALITY_BELOW_FLOOR);
    }
    Verdict rejection = v.verdict();
    c.rt.meters.verificationFailure(v.rejectedAt(), ToolMeters.VerificationFailure.of(rejection.reason()));
    boolean newEvidence = c.lastRejection == null || !c.lastRejection.reason().equals(rejection.reason())
        || !c.lastRejection.evidence().equals(rejection.evidence());
    c.lastRejection = rejection;
    c.classification = rejectedAt(v.rejectedAt());
    c.fault = Fault.V1;
    c.history().recordRejection(rejection.reason(), newEvidence);
    if (c.alreadyCommitted()) {
      return decide.settle(c, Action.ESCALATE, Reason.VERIFICATION_FAILED);
    }
    return Next.to(ControllerState.CHECK);
  }

  private static VerifyLevel levelOf(Call<?> c) {
    VerifyLevel level = c.policy.verifyLevel();
    if (c.rung >= 0) {
      // Higher rungs trade quality for availability and are checked harder (Table 5).
      DegradeLevel rungLevel = c.rungLevel();
      VerifyLevel needed = rungLevel.compareTo(DegradeLevel.L3) >= 0 ? VerifyLevel.V2 : VerifyLevel.V1;
      if (needed.compareTo(level) > 0) {
        level = needed;
      }
    }
    return level;
  }

  private static Classification[] rejected() {
    VerifyLevel[] levels = VerifyLevel.values();
    Classification[] out = new Classification[levels.length];
    for (int i = 0; i < levels.length; i++) {
      out[i] = new Classification(Fault.V1, 1.0, null, -1, "verify." + levels[i].name());
    }
    return out;
  }
}
