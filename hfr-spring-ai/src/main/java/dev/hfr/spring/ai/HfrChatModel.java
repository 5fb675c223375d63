package dev.hfr.spring.ai;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.internal.model.ModelDecisionLog;
import dev.hfr.runtime.internal.model.ModelLadderRules;
import dev.hfr.runtime.internal.model.ModelLadderWalk;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.model.ModelStreamInterruptedException;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A Spring AI {@link ChatModel} that runs every call through HFR's model ladder: each failure of a rung's model is
 * classified into F2D-9 ({@link ModelFailureClassifier}) and the runtime's model ladder — the same code as the
 * LangChain4j adapter's {@code HfrChatModel} — decides: T1/T3 retry on the same rung with full-jitter backoff,
 * T2 waits at least the Retry-After (an exhausted quota degrades instead), T4/T5 degrade at once, T7 fails, T8 (a
 * refusal or a {@code content_filter} finish) escalates and is never degraded around ({@link ModelRefusalException}),
 * unclassified failures are probed once more. A rung above what the criticality allows without a human (HIGH: L2,
 * MEDIUM: L3; paper Table 5) is skipped. An answer from a fallback rung is marked in the response metadata:
 * {@code hfr.degraded=true}, {@code hfr.rung}, {@code hfr.level} ({@code hfr.degraded=false} on the primary).
 *
 * <p>T6 (context overflow) compresses the conversation once (L1, the {@link ContextSummarizer}; by default the same
 * {@link KeepRecentSummarizer} compression as the LangChain4j adapter's) and resends it to the same rung; an answer to a
 * compressed conversation is marked degraded at L1. A conversation that cannot be shortened, or overflows again, fails:
 * it is never resent unchanged. Configure the rungs' models without their own retries
 * ({@code spring.ai.openai.max-retries=0}).
 *
 * <p>{@link #stream} walks the same ladder with the same rules until the first chunk that carries content reaches the
 * subscriber; after it, a failure is never retried nor degraded (a second stream would repeat what the subscriber
 * already showed): the {@code Flux} ends with a {@link ModelStreamInterruptedException} (or a
 * {@link ModelRefusalException} for a {@code content_filter} finish). Retries wait on Reactor's bounded-elastic
 * scheduler, never on the model client's threads. A subscriber that cancels the stream ends the call: a {@code FAIL}
 * decision for the reason {@code cancelled}, and the call counted as failed in the task, as for any other end.
 *
 * <p>Given a decision sink ({@link Builder#decisionSink(Hfr)}), every decision but accepted answers is also written
 * there as a decision about the tool {@code model:<rung>} in the caller's task, and each model call that ends inside a
 * task is counted in that task's report, as the LangChain4j adapter does. A stream finds the task once, on the thread
 * that subscribes to it.
 *
 * <p>Under a {@code ChatClient}, Spring AI 2 runs the tool loop in an advisor, so one {@link #call} is one model
 * request and a retry repeats no tool. A model with internal tool execution runs tools inside {@code call}: give this
 * decorator such a model only with internal tool execution off.
 */
public final class HfrChatModel implements ChatModel {

  private final List<ChatModel> models;
  private final ModelLadderWalk<Message> walk;
  private final ModelFailureClassifier classifier;

  private HfrChatModel(Builder b) {
    this.models = b.rungs.stream().map(Rung::model).toList();
    ModelLadderRules rules = new ModelLadderRules(b.rungs.stream().map(Rung::name).toList(),
        b.rungs.stream().map(Rung::level).toList(), b.criticality, b.retry, b.maxWait.toNanos(), b.random);
    ModelDecisionLog log = b.decisionSink == null ? ModelDecisionLog.NONE
        : new ModelDecisionLog(b.decisionSink, b.currentTask, Clock.system(), b.engineEscalations);
    this.walk = new ModelLadderWalk<>(rules, b.summarizer::compress, b.sleeper, b.listener, b.escalationHandler, log);
    this.classifier = new ModelFailureClassifier(b.classifier);
  }

  public static Builder builder() {
    return new Builder();
  }

  /**
   * Options of no provider: a {@code ChatClient} builds each prompt's options from these, so they must not carry the
   * primary's model, endpoint or key into a fallback rung. Each rung merges what the prompt asks for into its own
   * options.
   */
  @Override
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  @Override
  public ChatResponse call(Prompt prompt) {
    ModelLadderWalk<Message>.Call call = walk.start(prompt.getInstructions());
    for (int i = walk.firstRung(); i >= 0; i = walk.nextRung(i)) {
      for (int attempt = 1; ; attempt++) {
        long started = System.nanoTime();
        ModelFailureClassifier.Failure failure;
        RuntimeException error = null;
        try {
          ChatResponse response = models.get(i).call(sent(prompt, call, i));
          failure = classifier.classify(response);
          if (failure == null) {
            return marked(response, i, call.accepted(i, attempt));
          }
        } catch (RuntimeException e) {
          error = e;
          failure = classifier.classify(e, Duration.ofNanos(System.nanoTime() - started));
        }
        ModelLadderWalk.Step step = call.afterFailure(i, attempt, failure.classification(), failure.quotaExhausted(), error, 0);
        if (step.move() == ModelLadderWalk.Move.END) {
          throw step.end();
        }
        if (step.move() == ModelLadderWalk.Move.DOWN) {
          break;
        }
      }
    }
    throw call.exhausted();
  }

  @Override
  public Flux<ChatResponse> stream(Prompt prompt) {
    return Flux.defer(() -> {
      ModelLadderWalk<Message>.Call call = walk.startStream(prompt.getInstructions());
      LiveAttempt live = new LiveAttempt();
      // a subscriber that stops reading ends the call: recorded and counted in its task like any other end
      return attempt(prompt, call, walk.firstRung(), 1, live)
          .doOnCancel(() -> call.cancelled(live.rung, live.attempt, live.delivered.get()));
    });
  }

  /** The attempt a stream is in, for a cancellation: written when an attempt starts, read by the cancelling thread. */
  private static final class LiveAttempt {
    volatile int rung;
    volatile int attempt;
    volatile AtomicInteger delivered = new AtomicInteger();
  }

  /** Streams attempt {@code attempt} on rung {@code rung} and, if it fails, what the ladder does next. */
  private Flux<ChatResponse> attempt(Prompt prompt, ModelLadderWalk<Message>.Call call, int rung, int attempt,
      LiveAttempt live) {
    if (rung < 0) {
      return Flux.error(call.exhausted());
    }
    return Flux.defer(() -> {
      long started = System.nanoTime();
      AtomicInteger delivered = new AtomicInteger();
      live.delivered = delivered;
      live.rung = rung;
      live.attempt = attempt;
      Prompt sent = sent(prompt, call, rung);
      DegradeLevel level = rung > 0 ? walk.rules().level(rung) : call.compressed() ? DegradeLevel.L1 : DegradeLevel.L0;
      return Flux.defer(() -> models.get(rung).stream(sent))
          .<ChatResponse>handle((chunk, out) -> {
            ModelFailureClassifier.Failure filtered = classifier.classify(chunk);
            if (filtered != null) {
              out.error(new AttemptFailed(filtered, null));
              return;
            }
            if (carriesContent(chunk)) {
              delivered.incrementAndGet();
            }
            out.next(marked(chunk, rung, level));
          })
          .onErrorMap(e -> !(e instanceof AttemptFailed),
              e -> new AttemptFailed(classifier.classify(e, Duration.ofNanos(System.nanoTime() - started)), e))
          .concatWith(Mono.fromRunnable(() -> call.accepted(rung, attempt)))
          .onErrorResume(AttemptFailed.class, failed -> Mono
              // the walk may wait out a retry's backoff: on a thread made for blocking, not the client's
              .fromCallable(() -> call.afterFailure(rung, attempt, failed.failure.classification(),
                  failed.failure.quotaExhausted(), failed.getCause(), delivered.get()))
              .subscribeOn(Schedulers.boundedElastic())
              .flatMapMany(step -> switch (step.move()) {
                case AGAIN -> attempt(prompt, call, rung, attempt + 1, live);
                case DOWN -> attempt(prompt, call, walk.nextRung(rung), 1, live);
                case END -> Flux.<ChatResponse>error(step.end());
              }));
    });
  }

  /** A failed attempt of a stream: what the classifier made of it, and what the model signalled (null for a filter). */
  private static final class AttemptFailed extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient ModelFailureClassifier.Failure failure;

    AttemptFailed(ModelFailureClassifier.Failure failure, Throwable error) {
      super(null, error, false, false);
      this.failure = failure;
    }
  }

  /** Whether a streamed chunk shows the subscriber anything: text or a tool call (not only a role or usage). */
  private static boolean carriesContent(ChatResponse chunk) {
    for (Generation g : chunk.getResults()) {
      if (g.getOutput() != null && ((g.getOutput().getText() != null && !g.getOutput().getText().isEmpty())
          || g.getOutput().hasToolCalls())) {
        return true;
      }
    }
    return false;
  }

  /** The prompt attempt on {@code rung} sends: the conversation as the walk has it, the options as the rung takes them. */
  private Prompt sent(Prompt prompt, ModelLadderWalk<Message>.Call call, int rung) {
    ChatOptions options = forRung(prompt.getOptions(), rung);
    return !call.compressed() && options == prompt.getOptions() ? prompt : new Prompt(call.messages(), options);
  }

  /**
   * What the prompt asks for (temperature, tools, ...) merged into the rung's own options, so each rung gets options
   * of its provider's type with its own endpoint; a fallback rung keeps its own model name. {@code null} (the rung's
   * defaults) stays {@code null}.
   */
  private ChatOptions forRung(ChatOptions asked, int rung) {
    if (asked == null) {
      return null;
    }
    ChatOptions own = models.get(rung).getOptions();
    ChatOptions.Builder<?> merged = own.mutate().combineWith(asked.mutate());
    if (rung > 0 && own.getModel() != null) {
      merged.model(own.getModel());
    }
    return merged.build();
  }

  private ChatResponse marked(ChatResponse response, int rung, DegradeLevel level) {
    return ChatResponse.builder().from(response)
        .metadata("hfr.degraded", level != DegradeLevel.L0)
        .metadata("hfr.rung", walk.rules().name(rung))
        .metadata("hfr.level", level.name())
        .build();
  }

  /** One rung: its name, level and model. */
  private record Rung(String name, DegradeLevel level, ChatModel model) {}

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
    private DecisionSink decisionSink;
    private ModelDecisionLog.Escalations engineEscalations;
    private Supplier<TaskScope> currentTask = () -> null;

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

    /** Waits out a retry's delay: on the calling thread for {@link #call}, on a bounded-elastic thread for {@link #stream}. */
    public Builder sleeper(Sleeper sleeper) {
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /** Receives every decision, in order: on the calling thread for {@link #call}, on Reactor's threads for {@link #stream}. */
    public Builder listener(Consumer<ModelDecision> listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Receives refusals and, at HIGH criticality, exhausted ladders before they are thrown (or signalled). */
    public Builder escalationHandler(Consumer<ModelCallFailedException> handler) {
      this.escalationHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /** How a conversation that overflowed the context window is shortened (L1); default {@link KeepRecentSummarizer}. */
    public Builder summarizer(ContextSummarizer summarizer) {
      this.summarizer = Objects.requireNonNull(summarizer, "summarizer");
      return this;
    }

    /**
     * Also writes every decision but accepted answers to {@code sink} — give it the engine's sink, so model and tool
     * decisions land in one log — in the tenant and task {@code currentTask} supplies (it may answer {@code null}
     * outside a task). Each model call that ends inside a task is also counted in the task's report
     * ({@code TaskScope.recordOutcome}): a model escalation shows in {@code escalated()}.
     */
    public Builder decisionSink(DecisionSink sink, Supplier<TaskScope> currentTask) {
      this.decisionSink = Objects.requireNonNull(sink, "sink");
      this.currentTask = Objects.requireNonNull(currentTask, "currentTask");
      return this;
    }

    /**
     * Writes the decisions to {@code engine}'s own decision sink ({@link Hfr#decisionSink()}: its log, with its
     * redaction and {@code emit_decision_events} setting), in the task the engine sees open on the calling thread
     * ({@link Hfr#currentTask()}), and counts each model call in that task's report — the same as
     * {@code decisionSink(engine.decisionSink(), () -> engine.currentTask().orElse(null))}; and hands the ladder's
     * escalations (a refusal; an exhausted ladder at HIGH criticality) with their evidence to the engine too ({@link
     * Hfr#escalate}), as a tool call's: the task's escalation checkpoint is saved first, so a resumed task shows it was
     * escalated ({@link Hfr#resumePending()}), then the engine's {@link Hfr#escalationHandler()} hears of it — in a
     * Spring Boot application, the starter's escalation queue, which {@code /actuator/hfr} lists. The starter's {@code HfrChatModel.Builder} bean comes with it. For {@link #stream},
     * the task is looked up once, on the thread that subscribes.
     */
    public Builder decisionSink(Hfr engine) {
      Objects.requireNonNull(engine, "engine");
      decisionSink(engine.decisionSink(), () -> engine.currentTask().orElse(null));
      this.engineEscalations = engine::escalate;
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
