package dev.hfr.langchain4j;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.internal.model.ModelLadderRules;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * What {@link HfrChatModel} and {@link HfrStreamingChatModel} share once built: the ladder, its
 * {@link ModelLadderRules} (the runtime's, shared with the Spring AI adapter), the settings of {@link ModelLadderBuilder}, and, per call ({@link Call}), the
 * decision that follows each classified failure. The two models differ only in how they call a rung and
 * hand the answer over — in a loop on the caller's thread, or from the model's callbacks — so they decide
 * alike by construction.
 *
 * @param <M> the LangChain4j model type called on a rung
 */
final class ModelLadder<M> {

  /** One rung: the name it is recorded under, its ladder level, and the model called on it. */
  record Rung<M>(String name, DegradeLevel level, M model) {
    Rung {
      checkRung(name, level, model);
    }
  }

  /** Where a call goes after a failure: the same rung again, down the ladder, or nowhere. */
  enum Move { AGAIN, DOWN, END }

  /**
   * What follows a failure.
   *
   * @param move where the call goes
   * @param end the exception that ends the call, for {@link Move#END} only
   */
  record Step(Move move, ModelCallFailedException end) {
    static final Step AGAIN = new Step(Move.AGAIN, null);
    static final Step DOWN = new Step(Move.DOWN, null);

    static Step end(ModelCallFailedException end) {
      return new Step(Move.END, end);
    }
  }

  final List<Rung<M>> rungs;
  final ModelLadderRules rules;
  final ModelFailureClassifier classifier;
  final Clock clock;
  final Set<Capability> capabilities;
  private final ContextSummarizer summarizer;
  private final Sleeper sleeper;
  private final Consumer<ModelDecision> listener;
  private final Consumer<ModelCallFailedException> escalationHandler;
  private final ModelDecisionLog log;

  /** @param capabilitiesOf what a rung's model supports; the ladder supports what all its models do */
  ModelLadder(ModelLadderBuilder<M, ?> b, Function<M, Set<Capability>> capabilitiesOf) {
    this.rungs = List.copyOf(b.rungs);
    this.rules = new ModelLadderRules(rungs.stream().map(r -> r.name()).toList(), rungs.stream().map(r -> r.level()).toList(),
        b.criticality, b.retry, b.maxWait.toNanos(), b.random);
    this.classifier = new ModelFailureClassifier(b.classifier);
    this.clock = b.clock;
    this.summarizer = b.summarizer;
    this.sleeper = b.sleeper;
    this.listener = b.listener;
    this.escalationHandler = b.escalationHandler;
    this.log = b.decisionSink == null ? ModelDecisionLog.NONE : new ModelDecisionLog(b.decisionSink, b.currentTask, b.clock);
    Set<Capability> common = EnumSet.allOf(Capability.class);
    for (Rung<M> r : rungs) {
      common.retainAll(capabilitiesOf.apply(r.model()));
    }
    this.capabilities = Set.copyOf(common);
  }

  /** The checks every rung passes, whichever model type it holds (also {@link ModelRung}'s). */
  static void checkRung(String name, DegradeLevel level, Object model) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException("a model rung needs a name");
    }
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(model, "model");
    if (level == DegradeLevel.L1) {
      throw new IllegalArgumentException(
          "rung " + name + ": L1 is context compression, done by the ContextSummarizer, not by another model;"
              + " use L2 (same-tier model or provider) or L3 (smaller model)");
    }
  }

  /** The rung a call starts on: the first one allowed without a human, or -1. */
  int firstRung() {
    return rules.nextAllowedAfter(-1);
  }

  Call call(ChatRequest request) {
    return new Call(request);
  }

  /**
   * The state of one call on the ladder: the conversation as sent, whether it was compressed, the wait
   * spent so far and the decisions taken. Used by one attempt at a time: the next attempt starts only
   * after the previous one ended, so the state needs no lock.
   */
  final class Call {
    private final ChatRequest original;
    private final List<ModelDecision> decisions = new ArrayList<>();
    private List<ChatMessage> messages;
    private boolean compressed;
    private long waitedNanos;
    private Throwable lastError;
    private ModelFailure lastFailure;
    private Reason lastReason = Reason.NO_SAFE_ALTERNATIVE;

    private Call(ChatRequest original) {
      this.original = original;
      this.messages = original.messages();
    }

    /** The request the next attempt sends: the original one, or the original with the compressed conversation. */
    ChatRequest request() {
      return compressed ? original.toBuilder().messages(messages).build() : original;
    }

    /** Records that rung {@code index} gave an acceptable answer, and whether that answer is degraded. */
    void accepted(int index, int attempt) {
      Rung<M> rung = rungs.get(index);
      boolean degraded = index > 0 || compressed;
      record(rung, attempt, null, "ACCEPT", Reason.OK, 0,
          degraded ? "degraded=true (" + (compressed ? "L1 compressed" : "") + (compressed && index > 0 ? ", " : "")
              + (index > 0 ? rung.level() + " " + rung.name() : "") + ")" : "degraded=false");
      log.outcome(decisions, ToolOutcome.Status.SUCCESS, null, degraded,
          index > 0 ? rung.level() : compressed ? DegradeLevel.L1 : DegradeLevel.L0, Reason.OK);
    }

    /**
     * Decides, records and (for a retry) waits out what follows {@code failure} of attempt {@code attempt}
     * on rung {@code index}: T8 escalates; a failure after {@code delivered} partial responses reached the
     * caller (streaming only; 0 otherwise) fails, since a second answer would repeat them; T7 fails; T6
     * compresses once; a retryable failure waits and tries the same rung again; anything else moves down.
     *
     * @param error what the model threw or reported, or {@code null} for an answer classified as a failure
     */
    Step afterFailure(int index, int attempt, ModelFailure failure, Throwable error, int delivered) {
      lastError = error;
      lastFailure = failure;
      Rung<M> rung = rungs.get(index);
      Fault fault = failure.fault();
      String rule = failure.classification().rule();
      ModelLadderRules.Decision d =
          rules.decide(failure.classification(), failure.quotaExhausted(), index, attempt, waitedNanos, delivered, compressed);
      if (d.move() == ModelLadderRules.Move.COMPRESS) {
        List<ChatMessage> shorter = summarizer.compress(messages);
        if (shorter.size() < messages.size()) {
          record(rung, attempt, failure, d.action(), d.reason(), 0, "L1: " + messages.size() + " -> " + shorter.size() + " messages, resending");
          messages = List.copyOf(shorter);
          compressed = true;
          return Step.AGAIN;
        }
        d = rules.cannotCompress(false);
      }
      record(rung, attempt, failure, d.action(), d.reason(), d.delayNanos() / 1_000_000L, d.detail());
      switch (d.move()) {
        case ESCALATE -> {
          ModelRefusalException refusal = new ModelRefusalException(
              rung.name() + " refused the request (T8, " + rule + "); escalated, not degraded around", decisions, error);
          escalate(refusal);
          return ended(refusal);
        }
        case FAIL -> {
          if (delivered > 0) {
            return ended(new ModelStreamInterruptedException(fault, rung.name() + " failed mid-stream (" + fault + ", " + rule
                + ") after " + delivered + " partial responses; not retried, not degraded", delivered, decisions, error));
          }
          String why = fault == Fault.T6 ? ": context window exceeded and compression cannot help (T6)"
              : " rejected the request (" + fault + ", " + rule + ")";
          return ended(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault, rung.name() + why, decisions, error));
        }
        case RETRY -> {
          try {
            sleeper.sleep(d.delayNanos());
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return ended(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
                rung.name() + ": interrupted while waiting to retry", decisions, e));
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
    ModelCallFailedException exhausted() {
      Fault fault = lastFailure == null ? Fault.UNCLASSIFIED : lastFailure.fault();
      ToolOutcome.Status status =
          rules.criticality() == Criticality.Level.HIGH ? ToolOutcome.Status.ESCALATED : ToolOutcome.Status.FAILED;
      ModelCallFailedException failed = new ModelCallFailedException(status, fault,
          "no model of the ladder gave an acceptable answer (last: " + fault + ")", decisions, lastError);
      if (status == ToolOutcome.Status.ESCALATED) {
        escalate(failed);
      }
      log.outcome(decisions, status, fault, false, DegradeLevel.L0, lastReason);
      return failed;
    }

    /** The call ends with {@code failure}: counted in the caller's task, then handed back to end the call. */
    private Step ended(ModelCallFailedException failure) {
      log.outcome(decisions, failure.status(), failure.fault(), false, DegradeLevel.L0, lastReason);
      return Step.end(failure);
    }

    /** Hands an escalation over; a failing handler is attached to the escalation, never replaces it. */
    private void escalate(ModelCallFailedException escalation) {
      try {
        escalationHandler.accept(escalation);
      } catch (RuntimeException handlerFailure) {
        escalation.addSuppressed(handlerFailure);
      }
    }

    private void record(Rung<M> rung, int attempt, ModelFailure failure, String action, Reason reason, long delayMillis,
        String detail) {
      Fault fault = failure == null ? null : failure.fault();
      String rule = failure == null ? "ok" : failure.classification().rule();
      ModelDecision d = new ModelDecision(rung.name(), rung.level(), attempt, fault, rule, action, delayMillis, detail);
      decisions.add(d);
      lastReason = reason;
      listener.accept(d);
      log.record(d, reason, failure == null ? 0.0 : failure.classification().confidence());
    }
  }
}
