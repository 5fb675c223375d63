package dev.hfr.spring.ai;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.internal.model.ModelLadderRules;
import dev.hfr.runtime.time.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.random.RandomGenerator;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;

/**
 * A Spring AI {@link ChatModel} that runs every call through HFR's model ladder: each failure of a rung's model is
 * classified into F2D-9 ({@link ModelFailureClassifier}) and the runtime's {@link ModelLadderRules} — the same rules
 * as the LangChain4j adapter's {@code HfrChatModel} — decide: T1/T3 retry on the same rung with full-jitter backoff,
 * T2 waits at least the Retry-After (an exhausted quota degrades instead), T4/T5 degrade at once, T7 fails, T8 (a
 * refusal or a {@code content_filter} finish) escalates and is never degraded around, unclassified failures are probed
 * once more. A rung above what the criticality allows without a human (HIGH: L2, MEDIUM: L3; paper Table 5) is
 * skipped. An answer from a fallback rung is marked in the response metadata: {@code hfr.degraded=true},
 * {@code hfr.rung}, {@code hfr.level} ({@code hfr.degraded=false} on the primary).
 *
 * <p>T6 (context overflow) compresses the conversation once (L1, the {@link ContextSummarizer}; by default the same
 * {@link KeepRecentSummarizer} compression as the LangChain4j adapter's) and resends it to the same rung; an answer to a
 * compressed conversation is marked degraded at L1. A conversation that cannot be shortened, or overflows again, fails:
 * it is never resent unchanged. Streaming is not decorated ({@link #stream} is the interface's default). Configure the rungs' models without their own retries ({@code spring.ai.openai.max-retries=0}).
 *
 * <p>Under a {@code ChatClient}, Spring AI 2 runs the tool loop in an advisor, so one {@link #call} is one model
 * request and a retry repeats no tool. A model with internal tool execution runs tools inside {@code call}: give this
 * decorator such a model only with internal tool execution off.
 */
public final class HfrChatModel implements ChatModel {

  /** One rung: its name, level and model. */
  private record Rung(String name, DegradeLevel level, ChatModel model) {}

  private final List<Rung> rungs;
  private final ModelLadderRules rules;
  private final ModelFailureClassifier classifier;
  private final Sleeper sleeper;
  private final Consumer<ModelDecision> listener;
  private final Consumer<ModelCallFailedException> escalationHandler;
  private final ContextSummarizer summarizer;

  private HfrChatModel(Builder b) {
    this.rungs = List.copyOf(b.rungs);
    this.rules = new ModelLadderRules(rungs.stream().map(Rung::name).toList(), rungs.stream().map(Rung::level).toList(),
        b.criticality, b.retry, b.maxWait.toNanos(), b.random);
    this.classifier = new ModelFailureClassifier(b.classifier);
    this.sleeper = b.sleeper;
    this.listener = b.listener;
    this.escalationHandler = b.escalationHandler;
    this.summarizer = b.summarizer;
  }

  public static Builder builder() {
    return new Builder();
  }

  @Override
  public ChatOptions getDefaultOptions() {
    return rungs.get(0).model().getDefaultOptions();
  }

  @Override
  public ChatResponse call(Prompt prompt) {
    Prompt current = prompt;
    boolean compressed = false;
    List<ModelDecision> decisions = new ArrayList<>();
    Throwable lastError = null;
    Fault lastFault = Fault.UNCLASSIFIED;
    long waited = 0;
    for (int i = rules.nextAllowedAfter(-1); i >= 0; i = rules.nextAllowedAfter(i)) {
      Rung rung = rungs.get(i);
      for (int attempt = 1; ; attempt++) {
        long started = System.nanoTime();
        ModelFailureClassifier.Failure failure;
        RuntimeException error = null;
        try {
          ChatResponse response = rung.model().call(current);
          failure = classifier.classify(response);
          if (failure == null) {
            DegradeLevel level = i > 0 ? rung.level() : compressed ? DegradeLevel.L1 : DegradeLevel.L0;
            record(decisions, new ModelDecision(rung.name(), rung.level(), attempt, null, "ok", "ACCEPT", 0,
                level == DegradeLevel.L0 ? "degraded=false" : "degraded=true (" + level + " " + rung.name()
                    + (compressed ? ", L1 compressed" : "") + ")"));
            return marked(response, rung, level);
          }
        } catch (RuntimeException e) {
          error = e;
          failure = classifier.classify(e, Duration.ofNanos(System.nanoTime() - started));
        }
        lastError = error;
        lastFault = failure.fault();
        ModelLadderRules.Decision d =
            rules.decide(failure.classification(), failure.quotaExhausted(), i, attempt, waited, 0, compressed);
        if (d.move() == ModelLadderRules.Move.COMPRESS) {
          List<Message> messages = current.getInstructions();
          List<Message> shorter = summarizer.compress(messages);
          if (shorter.size() < messages.size()) {
            record(decisions, new ModelDecision(rung.name(), rung.level(), attempt, failure.fault(),
                failure.classification().rule(), d.action(), 0,
                "L1: " + messages.size() + " -> " + shorter.size() + " messages, resending"));
            current = new Prompt(List.copyOf(shorter), current.getOptions());
            compressed = true;
            continue;
          }
          d = rules.cannotCompress(false);
        }
        record(decisions, new ModelDecision(rung.name(), rung.level(), attempt, failure.fault(),
            failure.classification().rule(), d.action(), d.delayNanos() / 1_000_000L, d.detail()));
        switch (d.move()) {
          case ESCALATE -> throw escalated(new ModelCallFailedException(ToolOutcome.Status.ESCALATED, Fault.T8,
              rung.name() + " refused the request (T8, " + failure.classification().rule() + "); escalated, not degraded around",
              decisions, error));
          case FAIL -> throw new ModelCallFailedException(ToolOutcome.Status.FAILED, failure.fault(),
              rung.name() + ": " + d.detail() + " (" + failure.fault() + ", " + failure.classification().rule() + ")", decisions, error);
          case RETRY -> {
            try {
              sleeper.sleep(d.delayNanos());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new ModelCallFailedException(ToolOutcome.Status.FAILED, failure.fault(),
                  rung.name() + ": interrupted while waiting to retry", decisions, e);
            }
            waited += d.delayNanos();
          }
          default -> { }
        }
        if (d.move() != ModelLadderRules.Move.RETRY) {
          break;
        }
      }
    }
    boolean escalate = rules.criticality() == Criticality.Level.HIGH;
    ModelCallFailedException exhausted = new ModelCallFailedException(
        escalate ? ToolOutcome.Status.ESCALATED : ToolOutcome.Status.FAILED, lastFault,
        "no model of the ladder gave an acceptable answer (last: " + lastFault + ")", decisions, lastError);
    throw escalate ? escalated(exhausted) : exhausted;
  }

  private void record(List<ModelDecision> decisions, ModelDecision d) {
    decisions.add(d);
    listener.accept(d);
  }

  /** Hands an escalation over; a failing handler is attached to the escalation, never replaces it. */
  private ModelCallFailedException escalated(ModelCallFailedException escalation) {
    try {
      escalationHandler.accept(escalation);
    } catch (RuntimeException handlerFailure) {
      escalation.addSuppressed(handlerFailure);
    }
    return escalation;
  }

  private static ChatResponse marked(ChatResponse response, Rung rung, DegradeLevel level) {
    return ChatResponse.builder().from(response)
        .metadata("hfr.degraded", level != DegradeLevel.L0)
        .metadata("hfr.rung", rung.name())
        .metadata("hfr.level", level.name())
        .build();
  }

  /** Builds an {@link HfrChatModel}; arguments are checked as they are given. Defaults as the LangChain4j adapter's. */
  public static final class Builder {

    private final List<Rung> rungs = new ArrayList<>();
    private Criticality.Level criticality = Criticality.Level.MEDIUM;
    private FailureClassifier classifier;
    private RetrySpec retry = RetrySpec.of(3, 200, 2000, Fault.T1, Fault.T2, Fault.T3);
    private Duration maxWait = Duration.ofSeconds(30);
    private Sleeper sleeper = Sleeper.system();
    private RandomGenerator random = new SplittableRandom();
    private Consumer<ModelDecision> listener = d -> { };
    private Consumer<ModelCallFailedException> escalationHandler = e -> { };
    private ContextSummarizer summarizer = new KeepRecentSummarizer();

    private Builder() {}

    /** The model tried first (level L0). */
    public Builder primary(String name, ChatModel model) {
      if (!rungs.isEmpty() && rungs.get(0).level() == DegradeLevel.L0) {
        throw new IllegalStateException("the primary model is already set to " + rungs.get(0).name());
      }
      rungs.add(0, rung(name, DegradeLevel.L0, model));
      return this;
    }

    /** A fallback: {@code L2} a same-tier model or provider, {@code L3} a smaller one, {@code L4} a deterministic answer. */
    public Builder fallback(DegradeLevel level, String name, ChatModel model) {
      if (level == DegradeLevel.L0) {
        throw new IllegalArgumentException("fallback " + name + " cannot be L0; L0 is the primary model");
      }
      Rung rung = rung(name, level, model);
      Rung previous = rungs.isEmpty() ? null : rungs.get(rungs.size() - 1);
      if (previous != null && previous.level().compareTo(level) > 0) {
        throw new IllegalArgumentException("fallback " + name + " at " + level + " comes after " + previous.name() + " at "
            + previous.level() + ": ladder levels must not descend");
      }
      rungs.add(rung);
      return this;
    }

    public Builder criticality(Criticality.Level criticality) {
      this.criticality = Objects.requireNonNull(criticality, "criticality");
      return this;
    }

    /** The runtime classifier the provider's observations go to (normally {@code DefaultFailureClassifier}). */
    public Builder classifier(FailureClassifier classifier) {
      this.classifier = Objects.requireNonNull(classifier, "classifier");
      return this;
    }

    /** Attempts per rung and backoff; T7 and T8 can never be retried (checked by {@link RetrySpec}). */
    public Builder retry(RetrySpec retry) {
      this.retry = Objects.requireNonNull(retry, "retry");
      return this;
    }

    /** The most one call may spend waiting between attempts before it degrades instead of waiting. */
    public Builder maxWait(Duration maxWait) {
      if (maxWait == null || maxWait.isNegative()) {
        throw new IllegalArgumentException("maxWait must be zero or positive, was " + maxWait);
      }
      this.maxWait = maxWait;
      return this;
    }

    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /** Receives every decision, in order, on the calling thread. */
    public Builder listener(Consumer<ModelDecision> listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Receives refusals and, at HIGH criticality, exhausted ladders before they are thrown. */
    public Builder escalationHandler(Consumer<ModelCallFailedException> handler) {
      this.escalationHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** How a conversation that overflowed the context window is shortened (L1); default {@link KeepRecentSummarizer}. */
    public Builder summarizer(ContextSummarizer summarizer) {
      this.summarizer = Objects.requireNonNull(summarizer, "summarizer");
      return this;
    }

    public HfrChatModel build() {
      if (rungs.isEmpty() || rungs.get(0).level() != DegradeLevel.L0) {
        throw new IllegalStateException("an HfrChatModel needs a primary model: call primary(name, model)");
      }
      if (classifier == null) {
        throw new IllegalStateException("no classifier: pass classifier(new DefaultFailureClassifier())");
      }
      return new HfrChatModel(this);
    }

    private static Rung rung(String name, DegradeLevel level, ChatModel model) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a model rung needs a name");
      }
      Objects.requireNonNull(level, "level");
      Objects.requireNonNull(model, "model");
      if (level == DegradeLevel.L1) {
        throw new IllegalArgumentException("rung " + name + ": L1 is context compression, not another model;"
            + " use L2 (same-tier model or provider) or L3 (smaller model)");
      }
      return new Rung(name, level, model);
    }
  }
}
