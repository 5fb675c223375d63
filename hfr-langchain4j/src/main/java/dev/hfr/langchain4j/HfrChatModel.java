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
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * A {@link ChatModel} that runs every call through HFR's model-side recovery: each failure of the
 * underlying model is classified into F2D-9 ({@link ModelFailureClassifier}), then
 *
 * <table>
 *   <caption>what each class does (paper Tables 2 and 11)</caption>
 *   <tr><th>class</th><th>action</th></tr>
 *   <tr><td>T1 5xx, T3 timeout</td><td>retry on the same rung with full-jitter backoff, then degrade</td></tr>
 *   <tr><td>T2 429</td><td>wait {@code max(backoff, Retry-After)} and retry; an exhausted quota, or a wait
 *       beyond the call's wait budget, degrades instead</td></tr>
 *   <tr><td>T4 overloaded, T5 model not found</td><td>degrade to the next rung at once</td></tr>
 *   <tr><td>T6 context overflow</td><td>compress the conversation once ({@link ContextSummarizer}, L1) and
 *       resend; never resend unchanged</td></tr>
 *   <tr><td>T7 invalid request, authentication</td><td>fail; no retry fixes a deterministic error (an
 *       exhausted quota, which the runtime may class T7, degrades to the next provider instead)</td></tr>
 *   <tr><td>T8 refusal, content filter</td><td>escalate; never retried, never degraded around</td></tr>
 *   <tr><td>unclassified</td><td>probe once more (a model call is a read), then degrade</td></tr>
 * </table>
 *
 * <p>The ladder is the primary model followed by the fallbacks, in order; a rung whose level is above
 * what the criticality allows without a human (HIGH: L2, MEDIUM: L3, LOW: L4; paper Table 5) is skipped.
 * When no rung is left the call fails — or is escalated for HIGH criticality. Every decision goes to the
 * listener; an accepted answer from a fallback rung or a compressed conversation is reported as
 * degraded there, never silently. Given a {@link DecisionSink} ({@link Builder#decisionSink}), the
 * decisions are also written to it, in the caller's task, next to the engine's tool decisions. For
 * streaming models, see {@link HfrStreamingChatModel}.
 *
 * <p>Configure the underlying models without their own retries ({@code maxRetries(0)}): two retry loops
 * multiply attempts, and only this one knows the fault class.
 */
public final class HfrChatModel implements ChatModel {

  private final List<ModelRung> rungs;
  private final Criticality.Level criticality;
  private final ModelFailureClassifier classifier;
  private final ContextSummarizer summarizer;
  private final ModelLadderRules rules;
  private final Clock clock;
  private final Sleeper sleeper;
  private final Consumer<ModelDecision> listener;
  private final Consumer<ModelCallFailedException> escalationHandler;
  private final ModelDecisionLog log;
  private final Set<Capability> capabilities;

  private HfrChatModel(Builder b) {
    this.rungs = List.copyOf(b.rungs);
    this.criticality = b.criticality;
    this.classifier = new ModelFailureClassifier(b.classifier);
    this.summarizer = b.summarizer;
    this.rules = new ModelLadderRules(rungs.stream().map(ModelRung::name).toList(), rungs.stream().map(ModelRung::level).toList(),
        b.criticality, b.retry, b.maxWait.toNanos(), b.random);
    this.clock = b.clock;
    this.sleeper = b.sleeper;
    this.listener = b.listener;
    this.escalationHandler = b.escalationHandler;
    this.log = b.decisionSink == null ? ModelDecisionLog.NONE : new ModelDecisionLog(b.decisionSink, b.currentTask, b.clock);
    Set<Capability> common = EnumSet.allOf(Capability.class);
    for (ModelRung r : rungs) {
      common.retainAll(r.model().supportedCapabilities());
    }
    this.capabilities = Set.copyOf(common);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The ladder, primary first. */
  public List<ModelRung> rungs() {
    return rungs;
  }

  @Override
  public Set<Capability> supportedCapabilities() {
    return capabilities;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    return new Call(request).run();
  }

  /** The state of one call: the conversation as sent, whether it was compressed, the decisions so far. */
  private final class Call {
    private final ChatRequest original;
    private final List<ModelDecision> decisions = new ArrayList<>();
    private List<ChatMessage> messages;
    private boolean compressed;
    private long waitedNanos;

    Call(ChatRequest original) {
      this.original = original;
      this.messages = original.messages();
    }

    ChatResponse run() {
      RuntimeException last = null;
      ModelFailure lastFailure = null;
      for (int i = 0; i < rungs.size(); i++) {
        ModelRung rung = rungs.get(i);
        if (!rules.allowed(i)) {
          continue; // needs a human at this criticality; said in the decision that left the last allowed rung
        }
        for (int attempt = 1; ; attempt++) {
          ChatRequest request = compressed ? original.toBuilder().messages(messages).build() : original;
          long started = clock.nanoTime();
          ModelFailure failure;
          RuntimeException error;
          try {
            ChatResponse response = rung.model().chat(request);
            failure = classifier.classify(response);
            if (failure == null) {
              boolean degraded = i > 0 || compressed;
              record(rung, attempt, null, "ACCEPT", Reason.OK, 0,
                  degraded ? "degraded=true (" + (compressed ? "L1 compressed" : "") + (compressed && i > 0 ? ", " : "")
                      + (i > 0 ? rung.level() + " " + rung.name() : "") + ")" : "degraded=false");
              return response;
            }
            error = null;
          } catch (RuntimeException e) {
            error = e;
            failure = classifier.classify(e, Duration.ofNanos(clock.nanoTime() - started));
          }
          last = error;
          lastFailure = failure;
          Fault fault = failure.fault();
          String rule = failure.classification().rule();
          if (fault == Fault.T8) {
            record(rung, attempt, failure, "ESCALATE", Reason.POLICY_REFUSAL, 0, "policy refusal: not retried, not degraded around");
            ModelRefusalException refusal = new ModelRefusalException(
                rung.name() + " refused the request (T8, " + rule + "); escalated, not degraded around", decisions, error);
            escalate(refusal);
            throw refusal;
          }
          if (fault == Fault.T7 && !failure.quotaExhausted()) {
            record(rung, attempt, failure, "FAIL", Reason.PERMANENT_ERROR, 0, "deterministic request error: no retry can fix it");
            throw new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
                rung.name() + " rejected the request (T7, " + rule + ")", decisions, error);
          }
          if (fault == Fault.T6) {
            if (!compressed) {
              List<ChatMessage> shorter = summarizer.compress(messages);
              if (shorter.size() < messages.size()) {
                record(rung, attempt, failure, "COMPRESS", Reason.CONTEXT_COMPRESSED, 0,
                    "L1: " + messages.size() + " -> " + shorter.size() + " messages, resending");
                messages = List.copyOf(shorter);
                compressed = true;
                continue;
              }
            }
            record(rung, attempt, failure, "FAIL", Reason.CONTEXT_NOT_COMPRESSIBLE, 0,
                compressed ? "still over the context window after compression" : "nothing left to compress");
            throw new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
                rung.name() + ": context window exceeded and compression cannot help (T6)", decisions, error);
          }
          long delay = rules.retryDelayNanos(failure, attempt, waitedNanos);
          if (delay >= 0) {
            record(rung, attempt, failure, "RETRY", Reason.RETRYABLE, delay / 1_000_000L, rules.retryReason(failure));
            try {
              sleeper.sleep(delay);
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new ModelCallFailedException(ToolOutcome.Status.FAILED, fault,
                  rung.name() + ": interrupted while waiting to retry", decisions, e);
            }
            waitedNanos += delay;
            continue;
          }
          record(rung, attempt, failure, rules.leaveAction(i), rules.leaveReason(failure, i), 0, rules.leaveDetail(failure, attempt, i));
          break;
        }
      }
      Fault fault = lastFailure == null ? Fault.UNCLASSIFIED : lastFailure.fault();
      ToolOutcome.Status status = criticality == Criticality.Level.HIGH ? ToolOutcome.Status.ESCALATED : ToolOutcome.Status.FAILED;
      ModelCallFailedException failed = new ModelCallFailedException(status, fault,
          "no model of the ladder gave an acceptable answer (last: " + fault + ")", decisions, last);
      if (status == ToolOutcome.Status.ESCALATED) {
        escalate(failed);
      }
      throw failed;
    }

    /** Hands an escalation over; a failing handler is attached to the escalation, never replaces it. */
    private void escalate(ModelCallFailedException escalation) {
      try {
        escalationHandler.accept(escalation);
      } catch (RuntimeException handlerFailure) {
        escalation.addSuppressed(handlerFailure);
      }
    }

    private void record(ModelRung rung, int attempt, ModelFailure failure, String action, Reason reason, long delayMillis,
        String detail) {
      Fault fault = failure == null ? null : failure.fault();
      String rule = failure == null ? "ok" : failure.classification().rule();
      ModelDecision d = new ModelDecision(rung.name(), rung.level(), attempt, fault, rule, action, delayMillis, detail);
      decisions.add(d);
      listener.accept(d);
      log.record(d, reason, failure == null ? 0.0 : failure.classification().confidence());
    }
  }

  /** Builds an {@link HfrChatModel}; arguments are checked as they are given. */
  public static final class Builder {
    private final List<ModelRung> rungs = new ArrayList<>();
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
    public Builder primary(String name, ChatModel model) {
      if (!rungs.isEmpty() && rungs.get(0).level() == DegradeLevel.L0) {
        throw new IllegalStateException("the primary model is already set to " + rungs.get(0).name());
      }
      rungs.add(0, new ModelRung(name, DegradeLevel.L0, model));
      return this;
    }

    /**
     * A fallback rung: {@code L2} for a same-tier model or another provider of it, {@code L3} for a smaller
     * or cheaper model, {@code L4} for a deterministic answer. Levels must not descend.
     */
    public Builder fallback(DegradeLevel level, String name, ChatModel model) {
      if (level == DegradeLevel.L0) {
        throw new IllegalArgumentException("fallback " + name + " cannot be L0; L0 is the primary model");
      }
      ModelRung rung = new ModelRung(name, level, model);
      ModelRung previous = rungs.isEmpty() ? null : rungs.get(rungs.size() - 1);
      if (previous != null && previous.level().compareTo(level) > 0) {
        throw new IllegalArgumentException("fallback " + name + " at " + level + " comes after " + previous.name()
            + " at " + previous.level() + ": ladder levels must not descend");
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

    /** Receives every decision, in order, on the calling thread. */
    public Builder listener(Consumer<ModelDecision> listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /** Receives refusals and, for HIGH criticality, exhausted ladders before they are thrown. */
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

    public HfrChatModel build() {
      if (rungs.isEmpty() || rungs.get(0).level() != DegradeLevel.L0) {
        throw new IllegalStateException("an HfrChatModel needs a primary model: call primary(name, model)");
      }
      if (classifier == null) {
        throw new IllegalStateException("no classifier: pass classifier(new DefaultFailureClassifier())");
      }
      return new HfrChatModel(this);
    }
  }
}
