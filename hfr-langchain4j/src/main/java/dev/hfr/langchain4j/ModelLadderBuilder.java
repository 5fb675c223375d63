package dev.hfr.langchain4j;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.internal.model.ModelDecisionLog;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import dev.langchain4j.model.chat.Capability;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The settings {@link HfrChatModel.Builder} and {@link HfrStreamingChatModel.Builder} share: the ladder and
 * how it is walked. Each model's builder adds only its {@code build()}. Arguments are checked as they are
 * given.
 *
 * @param <M> the LangChain4j model type called on a rung
 * @param <B> the model's own builder, which every setter returns
 */
abstract class ModelLadderBuilder<M, B extends ModelLadderBuilder<M, B>> {

  final List<ModelLadder.Rung<M>> rungs = new ArrayList<>();
  Criticality.Level criticality = Criticality.Level.MEDIUM;
  FailureClassifier classifier;
  ContextSummarizer summarizer = new KeepRecentSummarizer();
  RetrySpec retry = RetrySpec.of(3, 200, 2000, Fault.T1, Fault.T2, Fault.T3);
  Duration maxWait = Duration.ofSeconds(30);
  Clock clock = Clock.system();
  Sleeper sleeper = Sleeper.system();
  RandomGenerator random = new SplittableRandom();
  Consumer<ModelDecision> listener = d -> { };
  Consumer<ModelCallFailedException> escalationHandler = e -> { };
  DecisionSink decisionSink;
  ModelDecisionLog.Escalations engineEscalations;
  Supplier<TaskScope> currentTask = () -> null;

  ModelLadderBuilder() {}

  /** This builder, as the model's own builder type. */
  abstract B self();

  /** The model tried first (level L0). */
  public B primary(String name, M model) {
    if (!rungs.isEmpty() && rungs.get(0).level() == DegradeLevel.L0) {
      throw new IllegalStateException("the primary model is already set to " + rungs.get(0).name());
    }
    rungs.add(0, new ModelLadder.Rung<>(name, DegradeLevel.L0, model));
    return self();
  }

  /**
   * A fallback rung: {@code L2} for a same-tier model or another provider of it, {@code L3} for a smaller
   * or cheaper model, {@code L4} for a deterministic answer. Levels must not descend.
   */
  public B fallback(DegradeLevel level, String name, M model) {
    if (level == DegradeLevel.L0) {
      throw new IllegalArgumentException("fallback " + name + " cannot be L0; L0 is the primary model");
    }
    ModelLadder.Rung<M> rung = new ModelLadder.Rung<>(name, level, model);
    ModelLadder.Rung<M> previous = rungs.isEmpty() ? null : rungs.get(rungs.size() - 1);
    if (previous != null && previous.level().compareTo(level) > 0) {
      throw new IllegalArgumentException("fallback " + name + " at " + level + " comes after " + previous.name()
          + " at " + previous.level() + ": ladder levels must not descend");
    }
    rungs.add(rung);
    return self();
  }

  public B criticality(Criticality.Level criticality) {
    this.criticality = Objects.requireNonNull(criticality, "criticality");
    return self();
  }

  /** The runtime classifier the provider's observations go to (normally {@code DefaultFailureClassifier}). */
  public B classifier(FailureClassifier classifier) {
    this.classifier = Objects.requireNonNull(classifier, "classifier");
    return self();
  }

  public B summarizer(ContextSummarizer summarizer) {
    this.summarizer = Objects.requireNonNull(summarizer, "summarizer");
    return self();
  }

  /** Attempts per rung and backoff; T7 and T8 can never be retried (checked by {@link RetrySpec}). */
  public B retry(RetrySpec retry) {
    this.retry = Objects.requireNonNull(retry, "retry");
    return self();
  }

  /** The most one call may spend waiting between attempts before it degrades instead of waiting. */
  public B maxWait(Duration maxWait) {
    if (maxWait == null || maxWait.isNegative()) {
      throw new IllegalArgumentException("maxWait must be zero or positive, was " + maxWait);
    }
    this.maxWait = maxWait;
    return self();
  }

  /** Clock and sleeper; tests pass one {@code VirtualTime} for both. */
  public B time(Clock clock, Sleeper sleeper) {
    this.clock = Objects.requireNonNull(clock, "clock");
    this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    return self();
  }

  public B random(RandomGenerator random) {
    this.random = Objects.requireNonNull(random, "random");
    return self();
  }

  /**
   * Receives every decision, in order, on the thread that took it: the calling thread for
   * {@link HfrChatModel}, a model callback thread for {@link HfrStreamingChatModel}.
   */
  public B listener(Consumer<ModelDecision> listener) {
    this.listener = Objects.requireNonNull(listener, "listener");
    return self();
  }

  /**
   * Receives refusals and, for HIGH criticality, exhausted ladders before the caller hears of them (before
   * they are thrown, or before the caller's {@code onError} when streaming).
   */
  public B escalationHandler(Consumer<ModelCallFailedException> handler) {
    this.escalationHandler = Objects.requireNonNull(handler, "handler");
    return self();
  }

  /**
   * Also writes every decision but accepted answers to {@code sink} — give it the engine's sink, so model
   * and tool decisions land in one log — in the tenant and task {@code currentTask} supplies (it may
   * answer {@code null} outside a task). Each model call that ends inside a task is also counted in the
   * task's report ({@code TaskScope.recordOutcome}): a model escalation shows in {@code escalated()}.
   */
  public B decisionSink(DecisionSink sink, Supplier<TaskScope> currentTask) {
    this.decisionSink = Objects.requireNonNull(sink, "sink");
    this.currentTask = Objects.requireNonNull(currentTask, "currentTask");
    return self();
  }

  /**
   * Writes the decisions to {@code engine}'s own decision sink ({@link Hfr#decisionSink()}: its log, with its
   * redaction and {@code emit_decision_events} setting), in the task the engine sees open on the calling thread
   * ({@link Hfr#currentTask()}), and counts each model call in that task's report — the same as
   * {@code decisionSink(engine.decisionSink(), () -> engine.currentTask().orElse(null))}; and hands the ladder's
   * escalations (a refusal; an exhausted ladder at HIGH criticality) with their evidence to the engine too ({@link
   * Hfr#escalate}), as a tool call's: the task's escalation checkpoint is saved first, so a resumed task shows it was
   * escalated ({@link Hfr#resumePending()}), then the engine's {@link Hfr#escalationHandler()} hears of it beside the
   * tool calls' escalations. A streaming model looks the task up once per call, on the thread that calls {@code chat}.
   */
  public B decisionSink(Hfr engine) {
    Objects.requireNonNull(engine, "engine");
    decisionSink(engine.decisionSink(), () -> engine.currentTask().orElse(null));
    this.engineEscalations = engine::escalate;
    return self();
  }

  /**
   * Checks the settings are complete and fixes them into a ladder, for the model's {@code build()}.
   *
   * @param modelType the class being built, named in the errors
   * @param capabilitiesOf what a rung's model supports
   */
  final ModelLadder<M> ladder(String modelType, Function<M, Set<Capability>> capabilitiesOf) {
    if (rungs.isEmpty() || rungs.get(0).level() != DegradeLevel.L0) {
      throw new IllegalStateException("an " + modelType + " needs a primary model: call primary(name, model)");
    }
    if (classifier == null) {
      throw new IllegalStateException("no classifier: pass classifier(new DefaultFailureClassifier())");
    }
    return new ModelLadder<>(this, capabilitiesOf);
  }
}
