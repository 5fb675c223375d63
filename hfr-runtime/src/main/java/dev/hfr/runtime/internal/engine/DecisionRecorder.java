package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.observation.CallListener;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.ledger.IdempotencyKeys;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.telemetry.HfrMeters;
import dev.hfr.runtime.time.Clock;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Every decision the engine takes, as a {@link DecisionEvent}: counted in the meters, kept with the call
 * (for its evidence bundle) and handed to the decision sink, as {@code telemetry.*} says.
 *
 * <p>{@code telemetry.sample_rate} below 1 samples the clean path: the decisions of a read that ends
 * accepted (a transient failure, retried, then answered) are held until the call ends and then published
 * together with that probability, or not at all. Whatever fails, escalates or replans, every write, and
 * shadow mode are always published, as they happen. While the sink wants no events (a logger below INFO)
 * the engine builds only what an escalation's evidence bundle needs: no argument hash, no task id; and while
 * nothing observes the calls either, a read's decisions are kept as values in its call and become events
 * only if the call takes another decision or escalates ({@code Call.draftDecision}), so a read retried and
 * then answered builds none.
 */
public final class DecisionRecorder {

  static final String ENFORCE = "enforce";
  static final String SHADOW = "shadow";

  private final HfrMeters meters;
  private final DecisionSink sink;
  private final Clock clock;
  private final double sampleRate;
  private final CallListener listener;

  /**
   * @param sampleRate the share of clean-path calls whose decisions are published, in [0, 1]
   */
  public DecisionRecorder(HfrMeters meters, DecisionSink sink, Clock clock, double sampleRate) {
    this(meters, sink, clock, sampleRate, CallListener.NONE);
  }

  /**
   * @param sampleRate the share of clean-path calls whose decisions are published, in [0, 1]
   * @param listener told every decision and every call's end (an Observation per call, for one)
   */
  public DecisionRecorder(HfrMeters meters, DecisionSink sink, Clock clock, double sampleRate, CallListener listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    this.meters = Objects.requireNonNull(meters, "meters");
    this.sink = Objects.requireNonNull(sink, "sink");
    this.clock = Objects.requireNonNull(clock, "clock");
    if (!(sampleRate >= 0 && sampleRate <= 1)) {
      throw new IllegalArgumentException("sampleRate must be in [0, 1], was " + sampleRate);
    }
    this.sampleRate = sampleRate;
  }

  /** Who hears of each decision and each call's end. */
  CallListener listener() {
    return listener;
  }

  /** Records that the call took {@code action} for {@code reason}, in {@code mode} ({@link #ENFORCE} or {@link #SHADOW}). */
  void record(Call<?> c, Action action, Reason reason, String mode) {
    boolean shadow = mode == SHADOW;
    c.rt.meters.decision(action, shadow);
    int stepLeft = c.stepOpened() ? c.stepMaxAttempts() - c.stepAttempts() : c.policy.retry().maxAttempts() - Math.max(1, c.attempts);
    int taskLeft = c.taskRetriesLeft();
    // A retry's backoff; for a call something refused (breaker, budget), when it expects to admit the call.
    long delayMillis = action == Action.RETRY ? c.delayNanos / 1_000_000L
        : Math.max(0, c.admitAfterMillis);
    // A sink that keeps nothing is spared the argument hash and an implicit task's id; the evidence bundle
    // fills both in if the call escalates. A held decision gets them when it is published.
    boolean publish = sink.wantsEvents();
    if (!publish && !shadow && listener == CallListener.NONE && c.risk() == Risk.R0 && c.lastRejection == null
        && !(c.hasResult && c.result != null) && c.unpublished == 0) {
      // Nothing hears it: a read's decision stays values in the call until something needs the event (none
      // held for sampling, which are counted from the end of the call's list).
      c.draftDecision(clock.epochMillis(), action, reason, delayMillis, Math.max(0, stepLeft), taskLeft);
      return;
    }
    boolean hold = publish && sampleRate < 1 && !shadow && c.risk() == Risk.R0 && !action.isTerminal();
    boolean complete = publish && !hold;
    DecisionEvent event = event(c, clock.epochMillis(), mode, complete || !c.implicit() ? c.task().taskId() : null,
        c.attempts, c.rungLevel(), c.fault, c.classification, action, reason, delayMillis,
        c.lastLatencyNanos / 1_000_000L, Math.max(0, stepLeft), taskLeft,
        c.lastRejection == null ? null : c.lastRejection.reason(), complete ? c.argsHash() : c.argsHash,
        c.hasResult && c.result != null ? resultHashOrType(c.result) : null, c.key(),
        c.ledgerState() == null ? null : c.ledgerState().name());
    if (complete) {
      publishHeld(c); // the decisions held before this one go first
    }
    c.addDecision(event);
    listener.decided(event);
    if (hold) {
      c.unpublished++;
    } else if (publish) {
      publish(event);
    }
  }

  /** The event of one decision of {@code c}, with the values it was taken with. */
  static DecisionEvent event(Call<?> c, long epochMillis, String mode, String taskId, int attempt, DegradeLevel rung,
      Fault fault, Classification cls, Action action, Reason reason, long delayMillis, long latencyMillis,
      int stepLeft, int taskLeft, String verifierReason, String argsHash, String resultHash, String ledgerKey,
      String ledgerState) {
    return new DecisionEvent(epochMillis, mode, c.tenant(), taskId, c.step, c.tool().name(), c.risk(), attempt, rung,
        fault, cls == null ? 0.0 : cls.confidence(), cls == null ? null : cls.rule(), action, reason, delayMillis,
        latencyMillis, stepLeft, taskLeft, verifierReason, argsHash, resultHash, ledgerKey, ledgerState);
  }

  /**
   * The call ends: accepted ({@code accepted}) or in a way that is not a recorded decision (a read failing
   * open). The decisions held for sampling are published — for an accepted call with the sample rate's
   * probability, otherwise always.
   */
  void callEnded(Call<?> c, boolean accepted) {
    if (c.unpublished == 0) {
      return;
    }
    if (accepted && ThreadLocalRandom.current().nextDouble() >= sampleRate) {
      c.unpublished = 0;
      return;
    }
    publishHeld(c);
  }

  private void publishHeld(Call<?> c) {
    int held = c.unpublished;
    if (held == 0) {
      return;
    }
    c.unpublished = 0;
    List<DecisionEvent> all = c.decisions();
    String taskId = c.task().taskId();
    String argsHash = c.argsHash();
    for (int i = all.size() - held; i < all.size(); i++) {
      publish(all.get(i).complete(taskId, argsHash));
    }
  }

  private void publish(DecisionEvent event) {
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
