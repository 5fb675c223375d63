package dev.hfr.runtime.telemetry;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.internal.telemetry.SharedCleanCallCounts;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The meters of one tool. Each tag combination is registered the first time it occurs and then kept in
 * a slot, so recording is an array read and an increment: no tag lists, no strings, no lookups per call.
 *
 * <p>The clean call — one attempt that succeeded and was accepted — is what almost every call is, so it
 * costs one striped increment ({@link #cleanCall()}): the meters it feeds (the successful attempts,
 * {@value HfrMeters#CALLS} and {@value HfrMeters#RETRY_AMPLIFICATION}) read their counts at scrape time
 * instead of being updated one by one. Its duration goes to {@value HfrMeters#CALL_DURATION} when the
 * engine timed it ({@link #cleanCall(long)}; see {@code CallTiming}). A clean call that a circuit breaker
 * counts as a success anyway is counted once, for both, in a counter this tool shares with the breaker
 * (reached by the engine through {@code internal.telemetry.SharedCleanCallCounts}, no part of this API).
 */
public final class ToolMeters {

  private static final Fault[] FAULTS = Fault.values();
  private static final int NO_FAULT = FAULTS.length;
  private static final Action[] ACTIONS = Action.values();
  private static final Reason[] REASONS = Reason.values();
  private static final DegradeLevel[] LEVELS = DegradeLevel.values();
  private static final VerifyLevel[] VERIFY_LEVELS = VerifyLevel.values();

  static {
    SharedCleanCallCounts.install(new SharedCleanCallCounts.Access() {
      @Override
      public LongAdder newSharedCount(ToolMeters meters) {
        return meters.newSharedCleanCallCount();
      }

      @Override
      public void countedCallTook(ToolMeters meters, long nanos) {
        meters.cleanCallCounted(nanos);
      }
    });
  }
  private static final ToolOutcome.Status[] STATUSES = ToolOutcome.Status.values();

  /** Bounded reasons of verification failures (a verifier's own reason text is never a tag value). */
  public enum VerificationFailure {
    REJECTED, NULL_RESULT, WRONG_TYPE, VERIFIER_ERROR, BELOW_QUALITY_FLOOR;

    final String tag = name().toLowerCase(Locale.ROOT);

    /** The bounded tag for a verdict's reason. */
    public static VerificationFailure of(String verdictReason) {
      switch (verdictReason) {
        case "null_result": return NULL_RESULT;
        case "wrong_type": return WRONG_TYPE;
        case "verifier_error":
        case "verifier_returned_null": return VERIFIER_ERROR;
        default: return REJECTED;
      }
    }
  }

  /** Reconcile outcomes. */
  public enum ReconcileOutcome {
    COMMITTED, ABSENT, UNKNOWN;

    final String tag = name().toLowerCase(Locale.ROOT);
  }

  private final MeterRegistry registry;
  private final String tool;

  private final AtomicReferenceArray<Counter> attempts = new AtomicReferenceArray<>((FAULTS.length + 1) * 2);
  private final AtomicReferenceArray<Counter> decisions = new AtomicReferenceArray<>(ACTIONS.length * 2);
  private final AtomicReferenceArray<Counter> budgetExhausted = new AtomicReferenceArray<>(REASONS.length);
  private final AtomicReferenceArray<Counter> degradations = new AtomicReferenceArray<>(LEVELS.length * (FAULTS.length + 1));
  private final AtomicReferenceArray<DistributionSummary> qualityDelta = new AtomicReferenceArray<>(LEVELS.length);
  private final AtomicReferenceArray<Counter> reconciles = new AtomicReferenceArray<>(3);
  private final AtomicReferenceArray<Counter> verificationFailures =
      new AtomicReferenceArray<>(VERIFY_LEVELS.length * VerificationFailure.values().length);
  private final AtomicReferenceArray<Counter> escalations = new AtomicReferenceArray<>(REASONS.length);
  private final AtomicReferenceArray<Counter> approvals = new AtomicReferenceArray<>(2);
  private final AtomicReferenceArray<Timer> durations = new AtomicReferenceArray<>(STATUSES.length * 2);
  private final AtomicReferenceArray<Counter> recalls = new AtomicReferenceArray<>(STATUSES.length);
  private final AtomicReferenceArray<Counter> controllerFailures = new AtomicReferenceArray<>(2);
  private final Counter duplicates;
  /** Calls that succeeded at their first attempt and were accepted: one logical call and one successful attempt each. */
  private final LongAdder cleanCalls = new LongAdder();
  /**
   * More clean calls: those counted in counters shared with circuit breakers ({@link #newSharedCleanCallCount()});
   * copied on write.
   */
  private volatile LongAdder[] sharedCleanCalls = new LongAdder[0];
  /** Every other logical call. */
  private final LongAdder otherCalls = new LongAdder();
  /** Successful attempts of the other calls. */
  private final LongAdder otherSuccesses = new LongAdder();
  /** Every attempt of the other calls, successful or not. */
  private final LongAdder otherAttempts = new LongAdder();
  /** The clean calls' timer, resolved on the first timed clean call. */
  private Timer cleanCallTimer;

  ToolMeters(MeterRegistry registry, String tool) {
    this.registry = registry;
    this.tool = tool;
    this.duplicates = Counter.builder(HfrMeters.DUPLICATE_SIDE_EFFECTS)
        .tag("tool", tool)
        .description("Side effects committed more than once for one logical action; should stay 0")
        .baseUnit("side_effects")
        .register(registry);
    FunctionCounter.builder(HfrMeters.ATTEMPTS, this, ToolMeters::successfulAttempts)
        .tag("tool", tool)
        .tag("class", "none")
        .tag("outcome", "success")
        .description(ATTEMPTS_DESCRIPTION)
        .baseUnit("attempts")
        .register(registry);
    FunctionCounter.builder(HfrMeters.CALLS, this, ToolMeters::calls)
        .tag("tool", tool)
        .description("Logical tool calls, whatever their outcome")
        .baseUnit("calls")
        .register(registry);
    Gauge.builder(HfrMeters.RETRY_AMPLIFICATION, this, ToolMeters::retryAmplification)
        .tag("tool", tool)
        .description("Physical attempts per logical call since start (retries and degradation rungs included); "
            + "over a window: rate of harness_attempts_total / rate of harness_calls_total")
        .register(registry);
  }

  private static final String ATTEMPTS_DESCRIPTION = "Physical attempts of tool calls, by fault class and outcome";

  private double successfulAttempts() {
    return (double) cleanCalls() + otherSuccesses.sum();
  }

  private double calls() {
    return (double) cleanCalls() + otherCalls.sum();
  }

  private long cleanCalls() {
    long sum = cleanCalls.sum();
    for (LongAdder shared : sharedCleanCalls) {
      sum += shared.sum();
    }
    return sum;
  }

  /** Attempts per logical call since start; NaN before the first call. */
  private double retryAmplification() {
    long clean = cleanCalls();
    long calls = clean + otherCalls.sum();
    return calls == 0 ? Double.NaN : (double) (clean + otherAttempts.sum()) / calls;
  }

  /** A clean call (one successful, accepted attempt) that the engine did not time. */
  public void cleanCall() {
    cleanCalls.increment();
  }

  /** A clean call (one successful, accepted attempt) that took {@code nanos}. */
  public void cleanCall(long nanos) {
    cleanCalls.increment();
    cleanCallCounted(nanos);
  }

  /**
   * A new counter of this tool's clean calls, to share with a circuit breaker that counts them as successes
   * ({@code CircuitBreaker.shareSuccessCount}): each of its increments is one clean call in this tool's meters.
   * A clean call counted there needs nothing more, unless it was timed ({@link #cleanCallCounted(long)}).
   */
  synchronized LongAdder newSharedCleanCallCount() {
    LongAdder shared = new LongAdder();
    LongAdder[] before = sharedCleanCalls;
    LongAdder[] after = Arrays.copyOf(before, before.length + 1);
    after[before.length] = shared;
    sharedCleanCalls = after;
    return shared;
  }

  /** A clean call already counted in a shared counter ({@link #newSharedCleanCallCount()}) that took {@code nanos}. */
  void cleanCallCounted(long nanos) {
    Timer t = cleanCallTimer;
    if (t == null) {
      t = durationTimer(ToolOutcome.Status.SUCCESS, false);
      cleanCallTimer = t;
    }
    t.record(nanos, TimeUnit.NANOSECONDS);
  }

  /** One physical attempt ended: successfully ({@code fault == null}) or with {@code fault}. */
  public void attempt(Fault fault, boolean success) {
    otherAttempts.increment();
    if (fault == null && success) {
      otherSuccesses.increment();
      return;
    }
    int f = fault == null ? NO_FAULT : fault.ordinal();
    int slot = f * 2 + (success ? 0 : 1);
    Counter c = attempts.get(slot);
    if (c == null) {
      c = Counter.builder(HfrMeters.ATTEMPTS)
          .tag("tool", tool)
          .tag("class", fault == null ? "none" : fault.name())
          .tag("outcome", success ? "success" : "failure")
          .description(ATTEMPTS_DESCRIPTION)
          .baseUnit("attempts")
          .register(registry);
      attempts.set(slot, c);
    }
    c.increment();
  }

  /** One decision was taken ({@code shadow}: recorded only, not acted on). */
  public void decision(Action action, boolean shadow) {
    int slot = action.ordinal() * 2 + (shadow ? 1 : 0);
    Counter c = decisions.get(slot);
    if (c == null) {
      c = Counter.builder(HfrMeters.DECISIONS)
          .tag("tool", tool)
          .tag("action", action.tag())
          .tag("mode", shadow ? "shadow" : "enforce")
          .description("Recovery decisions, by action; shadow decisions were recorded but not acted on")
          .baseUnit("decisions")
          .register(registry);
      decisions.set(slot, c);
    }
    c.increment();
  }

  /** A retry was refused because {@code budget} (a step, task, tenant or task-limit reason) ran out. */
  public void retryBudgetExhausted(Reason budget) {
    Counter c = budgetExhausted.get(budget.ordinal());
    if (c == null) {
      c = Counter.builder(HfrMeters.RETRY_BUDGET_EXHAUSTED)
          .tag("tool", tool)
          .tag("budget", budget.code())
          .description("Retries refused because a retry budget or task limit was exhausted")
          .register(registry);
      budgetExhausted.set(budget.ordinal(), c);
    }
    c.increment();
  }

  /** The call moved to a rung of {@code level} after {@code fault}. */
  public void degradation(DegradeLevel level, Fault fault) {
    int f = fault == null ? NO_FAULT : fault.ordinal();
    int slot = level.ordinal() * (FAULTS.length + 1) + f;
    Counter c = degradations.get(slot);
    if (c == null) {
      c = Counter.builder(HfrMeters.DEGRADATION)
          .tag("tool", tool)
          .tag("level", level.name())
          .tag("reason", fault == null ? "none" : fault.name())
          .description("Moves along the degradation ladder, by level and the fault that caused them")
          .register(registry);
      degradations.set(slot, c);
    }
    c.increment();
  }

  /** The verified quality of a degraded result fell short of full quality by {@code delta}. */
  public void degradationQualityDelta(DegradeLevel level, double delta) {
    DistributionSummary s = qualityDelta.get(level.ordinal());
    if (s == null) {
      s = DistributionSummary.builder(HfrMeters.DEGRADATION_QUALITY_DELTA)
          .tag("tool", tool)
          .tag("level", level.name())
          .description("Quality lost by degraded results: 1 minus the verified quality")
          .register(registry);
      qualityDelta.set(level.ordinal(), s);
    }
    s.record(delta);
  }

  /** A reconciliation ended with {@code outcome}. */
  public void reconcile(ReconcileOutcome outcome) {
    Counter c = reconciles.get(outcome.ordinal());
    if (c == null) {
      c = Counter.builder(HfrMeters.RECONCILE)
          .tag("tool", tool)
          .tag("outcome", outcome.tag)
          .description("Reconciliations of writes with unknown outcome, by what they found")
          .register(registry);
      reconciles.set(outcome.ordinal(), c);
    }
    c.increment();
  }

  /** Verification at {@code level} rejected a result for {@code reason}. */
  public void verificationFailure(VerifyLevel level, VerificationFailure reason) {
    int slot = level.ordinal() * VerificationFailure.values().length + reason.ordinal();
    Counter c = verificationFailures.get(slot);
    if (c == null) {
      c = Counter.builder(HfrMeters.VERIFICATION_FAILURES)
          .tag("tool", tool)
          .tag("level", level.name())
          .tag("reason", reason.tag)
          .description("Results rejected by verification, by level and reason")
          .baseUnit("failures")
          .register(registry);
      verificationFailures.set(slot, c);
    }
    c.increment();
  }

  /** A call was escalated for {@code reason}. */
  public void escalation(Reason reason) {
    Counter c = escalations.get(reason.ordinal());
    if (c == null) {
      c = Counter.builder(HfrMeters.ESCALATIONS)
          .tag("tool", tool)
          .tag("reason", reason.code())
          .description("Calls handed to a human or upstream system with an evidence bundle")
          .baseUnit("escalations")
          .register(registry);
      escalations.set(reason.ordinal(), c);
    }
    c.increment();
  }

  /** The approval gate answered. */
  public void approval(boolean approved) {
    int slot = approved ? 0 : 1;
    Counter c = approvals.get(slot);
    if (c == null) {
      c = Counter.builder(HfrMeters.APPROVALS)
          .tag("tool", tool)
          .tag("outcome", approved ? "approved" : "denied")
          .description("Approval gate answers for tools that require approval")
          .baseUnit("approvals")
          .register(registry);
      approvals.set(slot, c);
    }
    c.increment();
  }

  /** A side effect was committed more than once for one logical action. */
  public void duplicateSideEffect() {
    duplicates.increment();
  }

  /**
   * A logical call other than a clean one ended with {@code status} after {@code nanos}; its attempts were
   * reported one by one with {@link #attempt}.
   */
  public void call(ToolOutcome.Status status, boolean degraded, long nanos) {
    otherCalls.increment();
    durationTimer(status, degraded).record(nanos, TimeUnit.NANOSECONDS);
  }

  /**
   * A re-call of a write the task already made ended with {@code status} without a new attempt: a logical call,
   * but not one the tool failed or succeeded at, so it is kept out of {@link HfrMeters#CALL_DURATION}.
   */
  public void recall(ToolOutcome.Status status) {
    otherCalls.increment();
    Counter c = recalls.get(status.ordinal());
    if (c == null) {
      c = Counter.builder(HfrMeters.RECALLS)
          .tag("tool", tool)
          .tag("status", status.name().toLowerCase(Locale.ROOT))
          .description("Re-calls of a write the task already made, answered without a new attempt")
          .baseUnit("calls")
          .register(registry);
      recalls.set(status.ordinal(), c);
    }
    c.increment();
  }

  private Timer durationTimer(ToolOutcome.Status status, boolean degraded) {
    int slot = status.ordinal() * 2 + (degraded ? 1 : 0);
    Timer t = durations.get(slot);
    if (t == null) {
      t = Timer.builder(HfrMeters.CALL_DURATION)
          .tag("tool", tool)
          .tag("status", status.name().toLowerCase(Locale.ROOT))
          .tag("degraded", degraded ? "true" : "false")
          .description("Duration of logical tool calls, backoffs and recovery included")
          .register(registry);
      durations.set(slot, t);
    }
    return t;
  }

  /** The engine itself failed on a call and fell back open (reads) or closed (writes). */
  public void controllerFailure(boolean failedOpen) {
    int slot = failedOpen ? 0 : 1;
    Counter c = controllerFailures.get(slot);
    if (c == null) {
      c = Counter.builder(HfrMeters.CONTROLLER_FAILURES)
          .tag("tool", tool)
          .tag("fallback", failedOpen ? "open" : "closed")
          .description("Calls on which the engine itself failed: reads fail open, writes fail closed")
          .baseUnit("failures")
          .register(registry);
      controllerFailures.set(slot, c);
    }
    c.increment();
  }
}
