package dev.hfr.langchain4j;

import dev.hfr.runtime.internal.model.ModelLadderWalk;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.langchain4j.model.chat.Capability;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.request.ChatRequest;
import dev.langchain4j.model.chat.response.ChatResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;

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

  private final ModelLadder<ChatModel> ladder;
  private final List<ModelRung> rungs;

  private HfrChatModel(ModelLadder<ChatModel> ladder) {
    this.ladder = ladder;
    this.rungs = ladder.rungs.stream().map(r -> new ModelRung(r.name(), r.level(), r.model())).toList();
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
    return ladder.capabilities;
  }

  @Override
  public ChatResponse doChat(ChatRequest request) {
    ModelLadder<ChatModel>.Call call = ladder.call(request);
    for (int i = ladder.firstRung(); i >= 0; i = ladder.nextRung(i)) {
      ChatModel model = ladder.rungs.get(i).model();
      for (int attempt = 1; ; attempt++) {
        ChatRequest sent = call.request();
        long started = ladder.clock.nanoTime();
        ModelFailure failure;
        RuntimeException error = null;
        try {
          ChatResponse response = model.chat(sent);
          failure = ladder.classifier.classify(response);
          if (failure == null) {
            call.accepted(i, attempt);
            return response;
          }
        } catch (RuntimeException e) {
          error = e;
          failure = ladder.classifier.classify(e, Duration.ofNanos(ladder.clock.nanoTime() - started));
        }
        ModelLadderWalk.Step step = call.afterFailure(i, attempt, failure, error, 0);
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

  /**
   * Builds an {@link HfrChatModel}; arguments are checked as they are given. The ladder's settings are
   * the same as {@link HfrStreamingChatModel.Builder}'s.
   */
  public static final class Builder extends ModelLadderBuilder<ChatModel, Builder> {

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    public HfrChatModel build() {
      return new HfrChatModel(ladder("HfrChatModel", ChatModel::supportedCapabilities));
    }
  }
}
