package dev.hfr.runtime.internal.model;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.Classification;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.model.ModelStreamInterruptedException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.Sleeper;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * How every adapter's model ladder walks one call down its rungs, once for all: after each classified failure it asks
 * the {@link ModelLadderRules}, compresses the conversation (L1), waits out a retry, builds the exception that ends the
 * call, hands escalations over, and records each decision — to the listener, in the call's
 * {@link ModelCallFailedException#decisions()}, to the {@link ModelDecisionLog} and, when the call ends, in the
 * caller's task. An adapter only calls its framework's models (in a loop, or from streaming callbacks) and reports
 * what each attempt gave.
 *
 * @param <M> the framework's message type
 */
public final class ModelLadderWalk<M> {

  /** Where a call goes after a failure: the same rung again, down the ladder, or nowhere. */
  public enum Move { AGAIN, DOWN, END }

  /**
   * What follows a failure.
   *
   * @param move where the call goes
   * @param end the exception that ends the call, for {@link Move#END} only
   */
  public record Step(Move move, ModelCallFailedException end) {
    static final Step AGAIN = new Step(Move.AGAIN, null);
    static final Step DOWN = new Step(Move.DOWN, null);
  }

  private final ModelLadderRules rules;
  private final UnaryOperator<List<M>> compressor;
  private final Sleeper sleeper;
  private final Consumer<ModelDecision> listener;
  private final Consumer<ModelCallFailedException> escalationHandler;
  private final ModelDecisionLog log;

  /**
   * @param rules the ladder's rungs and rules
   * @param compressor the L1 rung: a strictly shorter conversation, or the same list when nothing can be dropped
   * @param sleeper waits out a retry's delay
   * @param listener receives every decision, in order, on the thread that took it
   * @param escalationHandler receives refusals and, at HIGH criticality, exhausted ladders before the caller does
   * @param log the decision sink and task of the caller ({@link ModelDecisionLog#NONE} for none)
   */
  public ModelLadderWalk(ModelLadderRules rules, UnaryOperator<List<M>> compressor, Sleeper sleeper,
      Consumer<ModelDecision> listener, Consumer<ModelCallFailedException> escalationHandler, ModelDecisionLog log) {
    this.rules = Objects.requireNonNull(rules, "rules");
    this.compressor = Objects.requireNonNull(compressor, "compressor");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    this.listener = Objects.requireNonNull(listener, "listener");
    this.escalationHandler = Objects.requireNonNull(escalationHandler, "escalationHandler");
    this.log = Objects.requireNonNull(log, "log");
  }

  public ModelLadderRules rules() {
    return rules;
  }

  /** The rung a call starts on: the first one allowed without a human, or -1. */
  public int firstRung() {
    return rules.nextAllowedAfter(-1);
  }

  /** The rung a call moves down to from {@code rung}, or -1 when none is allowed. */
  public int nextRung(int rung) {
    return rules.nextAllowedAfter(rung);
  }

  /** Starts walking one call whose conversation is {@code messages}; its decisions find the task when recorded. */
  public Call start(List<M> messages) {
    return new Call(messages, log);
  }

  /**
   * Starts walking one streamed call: the caller's task is looked up now, on the calling thread, since the stream's
   * attempts end on the model client's threads, where the task is not bound.
   */
  public Call startStream(List<M> messages) {
    return new Call(messages, log.withTaskOfCaller());
  }

  /**
   * The state of one call on the ladder: the conversation as sent, whether it was compressed, the wait spent so far
   * and the decisions taken. Used by one attempt at a time: the next attempt starts only after the previous one
   * ended, so the state needs no lock — except a caller's cancellation, which may come from any thread at any time:
   * the decisions are a concurrent list and the call is counted in the task once, by whichever end comes first.
   */
  public final class Call {
    private final ModelDecisionLog log;
    private final List<ModelDecision> decisions = new CopyOnWriteArrayList<>();
    /** The decisions as decision events, for an escalation's evidence. */
    private final List<DecisionEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicBoolean counted = new AtomicBoolean();
    private List<M> messages;
    private boolean compressed;
    private long waitedNanos;
    private Throwable lastError;
    private Fault lastFault;
    private Reason lastReason = Reason.NO_SAFE_ALTERNATIVE;

    private Call(List<M> messages, ModelDecisionLog log) {
      this.messages = messages;
      this.log = log;
    }

    /** The conversation the next attempt sends: the original one, or its compressed copy. */
    public List<M> messages() {
      return messages;
    }

    /** Whether the conversation was compressed (L1) in this call. */
    public boolean compressed() {
      return compressed;
    }

    /**
     * Records that rung {@code rung} gave an acceptable answer on attempt {@code attempt}, and counts the call in the
     * caller's task.
     *
     * @return the answer's ladder level: the rung's for a fallback, L1 for the primary after compression, else L0
     */
    public DegradeLevel accepted(int rung, int attempt) {
      DegradeLevel level = rung > 0 ? rules.level(rung) : compressed ? DegradeLevel.L1 : DegradeLevel.L0;
      boolean degraded = level != DegradeLevel.L0;
      record(rung, attempt, null, "ACCEPT", Reason.OK, 0, 0,
          degraded ? "degraded=true (" + (compressed ? "L1 compressed" : "") + (compressed && rung > 0 ? ", " : "")
              + (rung > 0 ? rules.level(rung) + " " + rules.name(rung) : "") + ")" : "degraded=false");
      count(ToolOutcome.Status.SUCCESS, null, degraded, level, Reason.OK);
      return level;
    }

    /**
     * The caller cancelled the call (a subscriber that stopped reading a stream) while attempt {@code attempt} on
     * rung {@code rung} ran, after {@code delivered} partial responses: unless the call had already ended, a
     * {@code FAIL} decision for {@link Reason#CANCELLED} (rule {@code cancelled}) is recorded and the call is counted
     * in the caller's task as failed. Nothing more is tried.
     */
    public void cancelled(int rung, int attempt, int delivered) {
      if (!counted.compareAndSet(false, true)) {
        return;
      }
      DegradeLevel level = rung > 0 ? rules.level(rung) : compressed ? DegradeLevel.L1 : DegradeLevel.L0;
      record(rung, attempt, null, "cancelled", "FAIL", Reason.CANCELLED, 0, 0,
          "cancelled by the caller after " + delivered + " partial responses");
      log.outcome(decisions, ToolOutcome.Status.FAILED, null, level != DegradeLevel.L0, level, Reason.CANCELLED);
    }

    /**
     * Decides, records and (for a retry) waits out what follows a failure of attempt {@code attempt} on rung
     * {@code rung}: T8 escalates; a failure after {@code delivered} partial responses reached the caller (streaming
     * only; 0 otherwise) fails, since a second answer would repeat them; T7 fails; T6 compresses once; a retryable
     * failure waits and tries the same rung again; anything else moves down.
     *
     * @param failure the F2D-9 class of the failure
     * @param quotaExhausted whether it is this provider account's exhausted quota (waiting cannot help)
     * @param error what the model threw or reported, or {@code null} for an answer classified as a failure
     */
    public Step afterFailure(int rung, int attempt, Classification failure, boolean quotaExhausted, Throwable error,
        int delivered) {
      lastError = error;
      lastFault = failure.fault();
      String name = rules.name(rung);
      Fault fault = failure.fault();
      String rule = failure.rule();
      ModelLadderRules.Decision d = rules.decide(failure, quotaExhausted, rung, attempt, waitedNanos, delivered, compressed);
      if (d.move() == ModelLadderRules.Move.COMPRESS) {
        List<M> shorter = compressor.apply(messages);
        if (shorter.size() < messages.size()) {
          record(rung, attempt, failure, d.action(), d.reason(), 0, failure.confidence(),
              "L1: " + messages.size() + " -> " + shorter.size() + " messages, resending");
          messages = List.copyOf(shorter);
          compressed = true;
          return Step.AGAIN;
        }
        d = rules.cannotCompress(false);
      }
      record(rung, attempt, failure, d.action(), d.reason(), d.delayNanos() / 1_000_000L, failure.confidence(), d.detail());
      switch (d.move()) {
        case ESCALATE -> {
          ModelRefusalException refusal = new ModelRefusalException(
              name + " refused the request (T8, " + rule + "); escalated, not degraded around", decisions, error);
          escalate(refusal, d.reason(), "the model refused the request (T8, " + rule + "): a human decides whether"
              + " and how to answer; the ladder never degrades around a refusal");
          return ended(refusal);
        }
        case FAIL -> {
          if (delivered > 0) {
            return ended(new ModelStreamInterruptedException(fault, name + " failed mid-stream (" + fault + ", " + rule
                + ") after " + delivered + " partial responses; not retried, not degraded", delivered, decisions, error));
          }
          String why = fault == Fault.T6 ? ": context window exceeded and compression cannot help (T6)"
              : " rejected the request (" + fault + ", " + rule + ")";
          return ended(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault, name + why, decisions, error));
        }
        case RETRY -> {
          try {
            sleeper.sleep(d.delayNanos());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ended(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
                name + ": interrupted while waiting to retry", decisions, e));
          }
          waitedNanos += d.delayNanos();
          return Step.AGAIN;
        }
        default -> {
          return Step.DOWN;
        }
      }
    }

    /** No allowed rung is left: the exception that ends the call, escalated first at HIGH criticality. */
    public ModelCallFailedException exhausted() {
      Fault fault = lastFault == null ? Fault.UNCLASSIFIED : lastFault;
      ToolOutcome.Status status =
          rules.criticality() == Criticality.Level.HIGH ? ToolOutcome.Status.ESCALATED : ToolOutcome.Status.FAILED;
      ModelCallFailedException failed = new ModelCallFailedException(status, fault,
          "no model of the ladder gave an acceptable answer (last: " + fault + ")", decisions, lastError);
      if (status == ToolOutcome.Status.ESCALATED) {
        List<String> withConsent = rules.needingAHuman();
        escalate(failed, lastReason, "every model " + rules.criticality() + " criticality allows without a human failed:"
            + " a human may answer" + (withConsent.isEmpty() ? "" : ", or allow " + String.join(", ", withConsent)));
      }
      count(status, fault, false, DegradeLevel.L0, lastReason);
      return failed;
    }

    /** The call ends with {@code failure}: counted in the caller's task, then handed back to end the call. */
    private Step ended(ModelCallFailedException failure) {
      count(failure.status(), failure.fault(), false, DegradeLevel.L0, lastReason);
      return new Step(Move.END, failure);
    }

    /** Counts the call in the caller's task, once: the first end wins (an answer, a failure or a cancellation). */
    private void count(ToolOutcome.Status status, Fault fault, boolean degraded, DegradeLevel level, Reason reason) {
      if (counted.compareAndSet(false, true)) {
        log.outcome(decisions, status, fault, degraded, level, reason);
      }
    }

    /**
     * Hands an escalation over: with its evidence to the engine first (when the log has one), which saves the caller's
     * task's escalation checkpoint before its escalation handler hears of it, then to the adapter's handler — so no
     * handler hears of an escalation the task's checkpoint does not show yet (§5.4). A failing handler is attached to
     * the escalation, never replaces it.
     */
    private void escalate(ModelCallFailedException escalation, Reason reason, String suggestion) {
      try {
        log.escalate(escalation, rules.criticality(), reason, List.copyOf(events), suggestion);
      } catch (Exception handlerFailure) {
        escalation.addSuppressed(handlerFailure);
      }
      try {
        escalationHandler.accept(escalation);
      } catch (RuntimeException handlerFailure) {
        escalation.addSuppressed(handlerFailure);
      }
    }

    private void record(int rung, int attempt, Classification failure, String action, Reason reason, long delayMillis,
        double confidence, String detail) {
      record(rung, attempt, failure == null ? null : failure.fault(), failure == null ? "ok" : failure.rule(), action,
          reason, delayMillis, confidence, detail);
    }

    private void record(int rung, int attempt, Fault fault, String rule, String action, Reason reason, long delayMillis,
        double confidence, String detail) {
      ModelDecision d = new ModelDecision(rules.name(rung), rules.level(rung), attempt, fault, rule, action, delayMillis,
          detail);
      decisions.add(d);
      lastReason = reason;
      listener.accept(d);
      log.record(d, reason, confidence);
      if (!"ACCEPT".equals(action)) {
        events.add(log.event(d, reason, confidence));
      }
    }
  }
}
