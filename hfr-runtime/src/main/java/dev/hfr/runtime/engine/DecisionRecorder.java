package dev.hfr.runtime.engine;

import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.budget.RetryBudget;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.time.Clock;
import java.util.Objects;

/**
 * Every decision the engine takes, as a {@link DecisionEvent}: counted in the meters, kept with the call
 * (for its evidence bundle) and handed to the decision sink.
 */
public final class DecisionRecorder {

  static final String ENFORCE = "enforce";
  static final String SHADOW = "shadow";

  private final HfrMeters meters;
  private final DecisionSink sink;
  private final Clock clock;

  public DecisionRecorder(HfrMeters meters, DecisionSink sink, Clock clock) {
    this.meters = Objects.requireNonNull(meters, "meters");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
  }

  /** Records that the call took {@code action} for {@code reason}, in {@code mode} ({@link #ENFORCE} or {@link #SHADOW}). */
  void record(Call<?> c, Action action, Reason reason, String mode) {
    boolean shadow = mode == SHADOW;
    c.rt.meters.decision(action, shadow);
    RetryBudget.Step step = c.budgetStepIfOpened();
    int stepLeft = step == null ? c.policy.retry().maxAttempts() - Math.max(1, c.attempts) : step.maxAttempts() - step.attempts();
    RetryBudget taskBudget = c.task.retryBudgetIfOpened();
    int taskLeft = taskBudget == null || taskBudget.maxRetriesPerTask() == Integer.MAX_VALUE ? -1 : taskBudget.remaining();
    Classification cls = c.classification;
    // A sink that keeps nothing is spared the argument hash; the evidence bundle fills it in if the call escalates.
    boolean publish = sink.wantsEvents();
    DecisionEvent event = new DecisionEvent(
        clock.epochMillis(),
        mode,
        c.task.tenant(),
        c.task.taskId(),
        c.step,
        c.tool.name(),
        c.risk,
        c.attempts,
        c.rungLevel(),
        c.fault,
        cls == null ? 0.0 : cls.confidence(),
        cls == null ? null : cls.rule(),
        action,
        reason,
        action == Action.RETRY ? c.delayNanos / 1_000_000L : 0L,
        c.lastLatencyNanos / 1_000_000L,
        Math.max(0, stepLeft),
        taskLeft,
        c.lastRejection == null ? null : c.lastRejection.reason(),
        publish ? c.argsHash() : c.argsHash,
        c.hasResult && c.result != null ? resultHashOrType(c.result) : null,
        c.key,
        c.ledgerState == null ? null : c.ledgerState.name());
    c.addDecision(event);
    if (!publish) {
      return;
    }
    try {
      sink.record(event);
    } catch (Exception e) {
      meters.sinkFailure();
    }
  }

  /** The result's hash for records; never fails (names the type when the result cannot be hashed). */
  static String resultHashOrType(Object result) {
    try {
      return IdempotencyKeys.resultHash(result);
    } catch (RuntimeException unreadable) {
      return "unhashable:" + result.getClass().getName();
    }
  }
}
