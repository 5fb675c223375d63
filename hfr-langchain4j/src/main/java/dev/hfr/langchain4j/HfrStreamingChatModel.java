package dev.hfr.langchain4j;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.classify.FailureClassifier;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import dev.hfr.runtime.time.Sleeper;
import dev.langchain4j.data.message.ChatMessage;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import dev.langchain4j.model.chat.response.CompleteToolCall;
import dev.langchain4j.model.chat.response.PartialResponse;
import dev.langchain4j.model.chat.response.PartialResponseContext;
import dev.langchain4j.model.chat.response.PartialThinking;
import dev.langchain4j.model.chat.response.PartialThinkingContext;
import dev.langchain4j.model.chat.response.PartialToolCall;
import dev.langchain4j.model.chat.response.PartialToolCallContext;
import dev.langchain4j.model.chat.response.StreamingChatResponseHandler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The streaming counterpart of {@link HfrChatModel}: a {@link StreamingChatModel} that classifies what the
 * underlying model delivers to {@code onError} (and a content-filter finish) with the same
 * {@link ModelFailureClassifier}, and walks the same ladder by the same rules — T1/T3 retried with
 * full-jitter backoff, T2 no sooner than its {@code Retry-After}, an exhausted quota, T4 and T5 to the next
 * rung, T6 compressed once, T7 failed, T8 escalated and never degraded around.
 *
 * <p>One rule is streaming's own: <b>once anything of the answer has reached the caller</b> (a token, a
 * thinking or tool-call fragment), a failure is never retried nor degraded silently, since a second stream
 * would repeat or contradict what the caller already showed. The caller's {@code onError} then receives a
 * {@link ModelStreamInterruptedException} (or a {@link ModelRefusalException} for T8), with the decision
 * {@code FAIL}. Before the first partial, a failure is handled exactly as the synchronous model does.
 *
 * <p>Threading: the underlying model reports on its own threads (for the OpenAI client, the HTTP client's).
 * A retry's wait is spent on the thread that reported the failure, through the injected {@link Sleeper},
 * and the next attempt is started from there. The caller's handler receives exactly one of
 * {@code onCompleteResponse} or {@code onError}.
 */
public final class HfrStreamingChatModel implements StreamingChatModel {

  private final List<Rung> rungs;
  private final ModelLadderRules rules;
  private final ModelFailureClassifier classifier;
  private final ContextSummarizer summarizer;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Consumer<ModelDecision> listener;
  private final Consumer<ModelCallFailedException> escalationHandler;
  private final ModelDecisionLog log;
  private final Set<Capability> capabilities;

  /** One rung of the streaming ladder. */
  private record Rung(String name, DegradeLevel level, StreamingChatModel model) {}

  private HfrStreamingChatModel(Builder b) {
    this.rungs = List.copyOf(b.rungs);
    this.rules = new ModelLadderRules(rungs.stream().map(Rung::name).toList(), rungs.stream().map(Rung::level).toList(),
        b.criticality, b.retry, b.maxWait.toNanos(), b.random);
    this.classifier = new ModelFailureClassifier(b.classifier);
    this.summarizer = b.summarizer;
    this.clock = b.clock;
    this.sleeper = b.sleeper;
    this.listener = b.listener;
    this.escalationHandler = b.escalationHandler;
    this.log = b.decisionSink == null ? ModelDecisionLog.NONE : new ModelDecisionLog(b.decisionSink, b.currentTask, b.clock);
    Set<Capability> common = EnumSet.allOf(Capability.class);
    for (Rung r : rungs) {
      common.retainAll(r.model().supportedCapabilities());
    }
    this.capabilities = Set.copyOf(common);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The names of the ladder's rungs, primary first. */
  public List<String> rungNames() {
    return rungs.stream().map(Rung::name).toList();
  }

  @Override
  public Set<Capability> supportedCapabilities() {
    return capabilities;
  }

  @Override
  public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
    Objects.requireNonNull(handler, "handler");
    new Call(request, handler).attempt(0, 1);
  }

  /** One streamed call: the conversation as sent, where on the ladder it is, what reached the caller. */
  private final class Call {
    private final ChatRequest original;
    private final StreamingChatResponseHandler caller;
    private final List<ModelDecision> decisions = new ArrayList<>();
    private final AtomicBoolean ended = new AtomicBoolean();
    private List<ChatMessage> messages;
    private boolean compressed;
    private long waitedNanos;
    private Throwable lastError;
    private ModelFailure lastFailure;

    Call(ChatRequest original, StreamingChatResponseHandler caller) {
      this.original = original;
      this.caller = caller;
      this.messages = original.messages();
    }

    /** Starts attempt {@code attempt} on rung {@code index}, or the first allowed rung at or after it. */
    void attempt(int index, int attempt) {
      while (index < rungs.size() && !rules.allowed(index)) {
        index++; // needs a human at this criticality; said in the decision that left the last allowed rung
      }
      if (index >= rungs.size()) {
        exhausted();
        return;
      }
      Rung rung = rungs.get(index);
      ChatRequest request = compressed ? original.toBuilder().messages(messages).build() : original;
      Attempt handler = new Attempt(index, attempt, clock.nanoTime());
      try {
        rung.model().chat(request, handler);
      } catch (RuntimeException e) {
        handler.onError(e); // a model that throws instead of reporting: the same failure
      }
    }

    /** What follows a failure of {@code a}; called once per attempt. */
    void onFailure(Attempt a, ModelFailure failure, Throwable error) {
      lastError = error;
      lastFailure = failure;
      Rung rung = rungs.get(a.index);
      Fault fault = failure.fault();
      String rule = failure.classification().rule();
      if (fault == Fault.T8) {
        record(rung, a.attempt, failure, "ESCALATE", Reason.POLICY_REFUSAL, 0, "policy refusal: not retried, not degraded around");
        ModelRefusalException refusal = new ModelRefusalException(
            rung.name() + " refused the request (T8, " + rule + "); escalated, not degraded around", decisions, error);
        escalate(refusal);
        end(refusal);
        return;
      }
      int delivered = a.delivered.get();
      if (delivered > 0) {
        record(rung, a.attempt, failure, "FAIL", Reason.NOT_RETRYABLE, 0,
            "failed after " + delivered + " partial responses reached the caller: not retried, it would repeat them");
        end(new ModelStreamInterruptedException(fault, rung.name() + " failed mid-stream (" + fault + ", " + rule + ") after "
            + delivered + " partial responses; not retried, not degraded", delivered, decisions, error));
        return;
      }
      if (fault == Fault.T7 && !failure.quotaExhausted()) {
        record(rung, a.attempt, failure, "FAIL", Reason.PERMANENT_ERROR, 0, "deterministic request error: no retry can fix it");
        end(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
            rung.name() + " rejected the request (T7, " + rule + ")", decisions, error));
        return;
      }
      if (fault == Fault.T6) {
        if (!compressed) {
          List<ChatMessage> shorter = summarizer.compress(messages);
          if (shorter.size() < messages.size()) {
            record(rung, a.attempt, failure, "COMPRESS", Reason.CONTEXT_COMPRESSED, 0,
                "L1: " + messages.size() + " -> " + shorter.size() + " messages, resending");
            messages = List.copyOf(shorter);
            compressed = true;
            attempt(a.index, a.attempt + 1);
            return;
          }
        }
        record(rung, a.attempt, failure, "FAIL", Reason.CONTEXT_NOT_COMPRESSIBLE, 0,
            compressed ? "still over the context window after compression" : "nothing left to compress");
        end(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
            rung.name() + ": context window exceeded and compression cannot help (T6)", decisions, error));
        return;
      }
      long delay = rules.retryDelayNanos(failure, a.attempt, waitedNanos);
      if (delay >= 0) {
        record(rung, a.attempt, failure, "RETRY", Reason.RETRYABLE, delay / 1_000_000L, rules.retryReason(failure));
        try {
          sleeper.sleep(delay);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          end(new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
              rung.name() + ": interrupted while waiting to retry", decisions, e));
          return;
        }
        waitedNanos += delay;
        attempt(a.index, a.attempt + 1);
        return;
      }
      record(rung, a.attempt, failure, rules.leaveAction(a.index), rules.leaveReason(failure, a.index), 0, rules.leaveDetail(failure, a.attempt, a.index));
      attempt(a.index + 1, 1);
    }

    /** No allowed rung is left: fail, or escalate at HIGH criticality. */
    private void exhausted() {
      Fault fault = lastFailure == null ? Fault.UNCLASSIFIED : lastFailure.fault();
      ToolOutcome.Status status = rules.criticality() == Criticality.Level.HIGH ? ToolOutcome.Status.ESCALATED : ToolOutcome.Status.FAILED;
      ModelCallFailedException failed = new ModelCallFailedException(status, fault,
          "no model of the ladder gave an acceptable answer (last: " + fault + ")", decisions, lastError);
      if (status == ToolOutcome.Status.ESCALATED) {
        escalate(failed);
      }
      end(failed);
    }

    private void escalate(ModelCallFailedException escalation) {
      try {
        escalationHandler.accept(escalation);
      } catch (RuntimeException handlerFailure) {
        escalation.addSuppressed(handlerFailure);
      }
    }

    /** Ends the call with an error; the caller hears of the end once. */
    private void end(ModelCallFailedException failure) {
      if (ended.compareAndSet(false, true)) {
        caller.onError(failure);
      }
    }

    private void record(Rung rung, int attempt, ModelFailure failure, String action, Reason reason, long delayMillis,
        String detail) {
      Fault fault = failure == null ? null : failure.fault();
      String rule = failure == null ? "ok" : failure.classification().rule();
      ModelDecision d = new ModelDecision(rung.name(), rung.level(), attempt, fault, rule, action, delayMillis, detail);
      decisions.add(d); // one attempt at a time: the next starts only after this one ended
      listener.accept(d);
      log.record(d, reason, failure == null ? 0.0 : failure.classification().confidence());
    }

    /**
     * The handler of one attempt: passes partial output on (counting it) and turns the end of the
     * attempt into an accepted answer or a failure. A stale callback after the attempt ended is ignored.
     */
    private final class Attempt implements StreamingChatResponseHandler {
      final int index;
      final int attempt;
      final long startedNanos;
      private final AtomicBoolean done = new AtomicBoolean();
      private final AtomicInteger delivered = new AtomicInteger();

      Attempt(int index, int attempt, long startedNanos) {
        this.index = index;
        this.attempt = attempt;
        this.startedNanos = startedNanos;
      }

      private boolean live() {
        return !done.get();
      }

      @Override
      public void onPartialResponse(String partialResponse) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onPartialResponse(partialResponse);
        }
      }

      @Override
      public void onPartialResponse(PartialResponse partialResponse, PartialResponseContext context) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onPartialResponse(partialResponse, context);
        }
      }

      @Override
      public void onPartialThinking(PartialThinking partialThinking) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onPartialThinking(partialThinking);
        }
      }

      @Override
      public void onPartialThinking(PartialThinking partialThinking, PartialThinkingContext context) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onPartialThinking(partialThinking, context);
        }
      }

      @Override
      public void onPartialToolCall(PartialToolCall partialToolCall) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onPartialToolCall(partialToolCall);
        }
      }

      @Override
      public void onPartialToolCall(PartialToolCall partialToolCall, PartialToolCallContext context) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onPartialToolCall(partialToolCall, context);
        }
      }

      @Override
      public void onCompleteToolCall(CompleteToolCall completeToolCall) {
        if (live()) {
          delivered.incrementAndGet();
          caller.onCompleteToolCall(completeToolCall);
        }
      }

      @Override
      public void onUnmappedRawEvent(Object rawEvent) {
        if (live()) {
          caller.onUnmappedRawEvent(rawEvent);
        }
      }

      @Override
      public void onCompleteResponse(ChatResponse response) {
        if (!done.compareAndSet(false, true)) {
          return;
        }
        ModelFailure failure = classifier.classify(response);
        if (failure != null) {
          onFailure(this, failure, null);
          return;
        }
        Rung rung = rungs.get(index);
        boolean degraded = index > 0 || compressed;
        record(rung, attempt, null, "ACCEPT", Reason.OK, 0,
            degraded ? "degraded=true (" + (compressed ? "L1 compressed" : "") + (compressed && index > 0 ? ", " : "")
                + (index > 0 ? rung.level() + " " + rung.name() : "") + ")" : "degraded=false");
        if (ended.compareAndSet(false, true)) {
          caller.onCompleteResponse(response);
        }
      }

      @Override
      public void onError(Throwable error) {
        if (!done.compareAndSet(false, true)) {
          return;
        }
        onFailure(this, classifier.classify(error, Duration.ofNanos(clock.nanoTime() - startedNanos)), error);
      }
    }
  }

  /** Builds an {@link HfrStreamingChatModel}; the settings mean what they mean for {@link HfrChatModel.Builder}. */
  public static final class Builder {
    private final List<Rung> rungs = new ArrayList<>();
    private Criticality.Level criticality = Criticality.Level.MEDIUM;
    private FailureClassifier classifier;
    private ContextSummarizer summarizer = new KeepRecentSummarizer();
    private RetrySpec retry = RetrySpec.of(3, 200, 2000, Fault.T1, Fault.T2, Fault.T3);
    private Duration maxWait = Duration.ofSeconds(30);
    private Clock clock = Clock.system();
    private Sleeper sleeper = Sleeper.system();
    private RandomGenerator random = new SplittableRandom();
    private Consumer<ModelDecision> listener = d -> { };
    private Consumer<ModelCallFailedException> escalationHandler = e -> { };
    private DecisionSink decisionSink;
    private Supplier<TaskScope> currentTask = () -> null;

    private Builder() {}

    /** The model tried first (level L0). */
    public Builder primary(String name, StreamingChatModel model) {
      if (!rungs.isEmpty() && rungs.get(0).level() == DegradeLevel.L0) {
        throw new IllegalStateException("the primary model is already set to " + rungs.get(0).name());
      }
      rungs.add(0, rung(name, DegradeLevel.L0, model));
      return this;
    }

    /** A fallback rung ({@code L2} same tier or provider, {@code L3} cheaper, {@code L4} deterministic); levels must not descend. */
    public Builder fallback(DegradeLevel level, String name, StreamingChatModel model) {
      if (level == DegradeLevel.L0) {
        throw new IllegalArgumentException("fallback " + name + " cannot be L0; L0 is the primary model");
      }
      Rung rung = rung(name, level, model);
      Rung previous = rungs.isEmpty() ? null : rungs.get(rungs.size() - 1);
      if (previous != null && previous.level().compareTo(level) > 0) {
        throw new IllegalArgumentException("fallback " + name + " at " + level + " comes after " + previous.name()
            + " at " + previous.level() + ": ladder levels must not descend");
      }
      rungs.add(rung);
      return this;
    }

    private static Rung rung(String name, DegradeLevel level, StreamingChatModel model) {
      if (name == null || name.isBlank()) {
        throw new IllegalArgumentException("a model rung needs a name");
      }
      Objects.requireNonNull(level, "level");
      Objects.requireNonNull(model, "model");
      if (level == DegradeLevel.L1) {
        throw new IllegalArgumentException("rung " + name + ": L1 is context compression, done by the ContextSummarizer,"
            + " not by another model; use L2 (same-tier model or provider) or L3 (smaller model)");
      }
      return new Rung(name, level, model);
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

    public Builder summarizer(ContextSummarizer summarizer) {
      this.summarizer = Objects.requireNonNull(summarizer, "summarizer");
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

    /** Clock and sleeper; tests pass one {@code VirtualTime} for both. */
    public Builder time(Clock clock, Sleeper sleeper) {
      this.clock = Objects.requireNonNull(clock, "clock");
      this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
      return this;
    }

    public Builder random(RandomGenerator random) {
      this.random = Objects.requireNonNull(random, "random");
      return this;
    }

    /** Receives every decision, in order, on the thread that took it (a model callback thread). */
    public Builder listener(Consumer<ModelDecision> listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Receives refusals and, for HIGH criticality, exhausted ladders before the caller's {@code onError}. */
    public Builder escalationHandler(Consumer<ModelCallFailedException> handler) {
      this.escalationHandler = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * Also writes every decision but accepted answers to {@code sink} — give it the engine's sink, so model
     * and tool decisions land in one log — in the tenant and task {@code currentTask} supplies (it may
     * answer {@code null} outside a task). Model decisions are not counted in the task's report: the
     * engine offers no public way to add an outcome to a task.
     */
    public Builder decisionSink(DecisionSink sink, Supplier<TaskScope> currentTask) {
      this.decisionSink = Objects.requireNonNull(sink, "sink");
      this.currentTask = Objects.requireNonNull(currentTask, "currentTask");
      return this;
    }

    public HfrStreamingChatModel build() {
      if (rungs.isEmpty() || rungs.get(0).level() != DegradeLevel.L0) {
        throw new IllegalStateException("an HfrStreamingChatModel needs a primary model: call primary(name, model)");
      }
      if (classifier == null) {
        throw new IllegalStateException("no classifier: pass classifier(new DefaultFailureClassifier())");
      }
      return new HfrStreamingChatModel(this);
    }
  }
}
