package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.verify.ResultVerification;
import java.util.Objects;

/**
 * The engine's collaborators in their groups, as {@link dev.hfr.runtime.Hfr} assembles them: what the
 * state steps share. Immutable.
 */
public final class EngineParts {

  final Clock clock;
  final HfrFeatures features;
  final ToolRuntimes tools;
  final FailureHandling failures;
  final ResultVerification verification;
  final WriteLedger writes;
  final Oversight oversight;
  final DecisionRecorder decisions;
  final AttemptTimeout timeouts;
  final Compensator compensator;

  /**
   * @param clock the engine's only time source
   * @param features what is switched on
   * @param tools per-tool meters, breakers, bulkheads and policies
   * @param failures classification, retry gate and backoff, compression
   * @param verification result checks V0–V3
   * @param writes the idempotency ledger as the engine uses it
   * @param oversight approval and escalation
   * @param decisions where decisions are recorded
   * @param timeouts the bounds of attempts, reconcile calls and compensations
   * @param compensator undoes a committed write whose result the verifier rejected, before it is retried
   */
  public EngineParts(Clock clock, HfrFeatures features, ToolRuntimes tools, FailureHandling failures,
      ResultVerification verification, WriteLedger writes, Oversight oversight, DecisionRecorder decisions,
      AttemptTimeout timeouts, Compensator compensator) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.features = Objects.requireNonNull(features, "features");
    this.tools = Objects.requireNonNull(tools, "tools");
    this.failures = Objects.requireNonNull(failures, "failures");
    this.verification = Objects.requireNonNull(verification, "verification");
    this.writes = Objects.requireNonNull(writes, "writes");
    this.oversight = Objects.requireNonNull(oversight, "oversight");
    this.decisions = Objects.requireNonNull(decisions, "decisions");
    this.timeouts = Objects.requireNonNull(timeouts, "timeouts");
    this.compensator = Objects.requireNonNull(compensator, "compensator");
  }
}
