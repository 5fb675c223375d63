package dev.hfr.langchain4j;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.runtime.internal.model.ModelDecisionLog;
import dev.hfr.runtime.internal.model.ModelLadderRules;
import dev.hfr.runtime.internal.model.ModelLadderWalk;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.time.Clock;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.request.ChatRequest;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Function;

/**
 * What {@link HfrChatModel} and {@link HfrStreamingChatModel} share once built: the ladder, the settings of
 * {@link ModelLadderBuilder}, and the runtime's {@link ModelLadderWalk} — shared with the Spring AI adapter — that
 * decides, records and counts what follows each classified failure of a call. The two models differ only in how they
 * call a rung and hand the answer over — in a loop on the caller's thread, or from the model's callbacks — so they
 * decide alike by construction.
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

  final List<Rung<M>> rungs;
  final ModelLadderWalk<ChatMessage> walk;
  final ModelFailureClassifier classifier;
  final Clock clock;
  final Set<Capability> capabilities;

  /** @param capabilitiesOf what a rung's model supports; the ladder supports what all its models do */
  ModelLadder(ModelLadderBuilder<M, ?> b, Function<M, Set<Capability>> capabilitiesOf) {
    this.rungs = List.copyOf(b.rungs);
    ModelLadderRules rules = new ModelLadderRules(rungs.stream().map(r -> r.name()).toList(),
        rungs.stream().map(r -> r.level()).toList(), b.criticality, b.retry, b.maxWait.toNanos(), b.random);
    ModelDecisionLog log = b.decisionSink == null ? ModelDecisionLog.NONE : new ModelDecisionLog(b.decisionSink, b.currentTask, b.clock, b.engineEscalations);
    this.walk = new ModelLadderWalk<>(rules, b.summarizer::compress, b.sleeper, b.listener, b.escalationHandler, log);
    this.classifier = new ModelFailureClassifier(b.classifier);
    this.clock = b.clock;
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
    return walk.firstRung();
  }

  /** The rung a call moves down to from {@code index}, or -1. */
  int nextRung(int index) {
    return walk.nextRung(index);
  }

  /** One call of {@link HfrChatModel}, on the caller's thread. */
  Call call(ChatRequest request) {
    return new Call(request, false);
  }

  /** One call of {@link HfrStreamingChatModel}: the caller's task is found now, before the callbacks run elsewhere. */
  Call streamedCall(ChatRequest request) {
    return new Call(request, true);
  }

  /** One call on the ladder: the runtime's walk, and the LangChain4j request it sends. */
  final class Call {
    private final ChatRequest original;
    private final ModelLadderWalk<ChatMessage>.Call walked;

    private Call(ChatRequest original, boolean streamed) {
      this.original = original;
      this.walked = streamed ? walk.startStream(original.messages()) : walk.start(original.messages());
    }

    /** The request the next attempt sends: the original one, or the original with the compressed conversation. */
    ChatRequest request() {
      return walked.compressed() ? original.toBuilder().messages(walked.messages()).build() : original;
    }

    /** Records that rung {@code index} gave an acceptable answer. */
    void accepted(int index, int attempt) {
      walked.accepted(index, attempt);
    }

    /**
     * What follows {@code failure} of attempt {@code attempt} on rung {@code index}, after {@code delivered} partial
     * responses reached the caller (streaming only; 0 otherwise); see {@link ModelLadderWalk.Call#afterFailure}.
     *
     * @param error what the model threw or reported, or {@code null} for an answer classified as a failure
     */
    ModelLadderWalk.Step afterFailure(int index, int attempt, ModelFailure failure, Throwable error, int delivered) {
      return walked.afterFailure(index, attempt, failure.classification(), failure.quotaExhausted(), error, delivered);
    }

    /** No allowed rung is left: the exception that ends the call, escalated first at HIGH criticality. */
    ModelCallFailedException exhausted() {
      return walked.exhausted();
    }

    /** The caller cancelled the stream during attempt {@code attempt} on rung {@code index}; see {@link ModelLadderWalk.Call#cancelled}. */
    void cancelled(int index, int attempt, int delivered) {
      walked.cancelled(index, attempt, delivered);
    }
  }
}
