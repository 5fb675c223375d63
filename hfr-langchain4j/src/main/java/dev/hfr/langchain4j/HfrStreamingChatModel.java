package dev.hfr.langchain4j;

import dev.hfr.runtime.internal.model.ModelLadderWalk;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.model.ModelStreamInterruptedException;
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
import dev.langchain4j.model.chat.response.StreamingHandle;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

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
 * A retry's wait is spent on the thread that reported the failure, through the injected {@link dev.hfr.runtime.time.Sleeper},
 * and the next attempt is started from there. The caller's handler receives exactly one of
 * {@code onCompleteResponse} or {@code onError}, unless it cancels the stream ({@code context.streamingHandle().cancel()}):
 * that ends the call with a {@code FAIL} decision for the reason {@code cancelled}, counted in the caller's task, and
 * the handler hears nothing more.
 */
public final class HfrStreamingChatModel implements StreamingChatModel {

  private final ModelLadder<StreamingChatModel> ladder;

  private HfrStreamingChatModel(ModelLadder<StreamingChatModel> ladder) {
    this.ladder = ladder;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** The names of the ladder's rungs, primary first. */
  public List<String> rungNames() {
    return ladder.rungs.stream().map(r -> r.name()).toList();
  }

  @Override
  public Set<Capability> supportedCapabilities() {
    return ladder.capabilities;
  }

  @Override
  public void doChat(ChatRequest request, StreamingChatResponseHandler handler) {
    Objects.requireNonNull(handler, "handler");
    new Call(request, handler).attempt(ladder.firstRung(), 1);
  }

  /** One streamed call: its state on the ladder, and whether the caller has heard of its end. */
  private final class Call {
    private final ModelLadder<StreamingChatModel>.Call walk;
    private final StreamingChatResponseHandler caller;
    private final AtomicBoolean ended = new AtomicBoolean();

    Call(ChatRequest original, StreamingChatResponseHandler caller) {
      this.walk = ladder.streamedCall(original);
      this.caller = caller;
    }

    /** Starts attempt {@code attempt} on rung {@code index}; at -1 no allowed rung is left. */
    void attempt(int index, int attempt) {
      if (index < 0) {
        end(walk.exhausted());
        return;
      }
      ChatRequest request = walk.request();
      Attempt handler = new Attempt(index, attempt, ladder.clock.nanoTime());
      try {
        ladder.rungs.get(index).model().chat(request, handler);
      } catch (RuntimeException e) {
        handler.onError(e); // a model that throws instead of reporting: the same failure
      }
    }

    /** What follows a failure of {@code a}; called once per attempt. */
    void onFailure(Attempt a, ModelFailure failure, Throwable error) {
      ModelLadderWalk.Step step = walk.afterFailure(a.index, a.attempt, failure, error, a.delivered.get());
      switch (step.move()) {
        case AGAIN -> attempt(a.index, a.attempt + 1);
        case DOWN -> attempt(ladder.nextRung(a.index), 1);
        case END -> end(step.end());
      }
    }

    /** Ends the call with an error; the caller hears of the end once. */
    private void end(ModelCallFailedException failure) {
      if (ended.compareAndSet(false, true)) {
        caller.onError(failure);
      }
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

      /** Passes a piece of the answer on to the caller, counting it, while the attempt is live. */
      private void passOn(Runnable toCaller) {
        if (live()) {
          delivered.incrementAndGet();
          toCaller.run();
        }
      }

      @Override
      public void onPartialResponse(String partialResponse) {
        passOn(() -> caller.onPartialResponse(partialResponse));
      }

      @Override
      public void onPartialResponse(PartialResponse partialResponse, PartialResponseContext context) {
        passOn(() -> caller.onPartialResponse(partialResponse, new PartialResponseContext(watched(context.streamingHandle()))));
      }

      @Override
      public void onPartialThinking(PartialThinking partialThinking) {
        passOn(() -> caller.onPartialThinking(partialThinking));
      }

      @Override
      public void onPartialThinking(PartialThinking partialThinking, PartialThinkingContext context) {
        passOn(() -> caller.onPartialThinking(partialThinking, new PartialThinkingContext(watched(context.streamingHandle()))));
      }

      @Override
      public void onPartialToolCall(PartialToolCall partialToolCall) {
        passOn(() -> caller.onPartialToolCall(partialToolCall));
      }

      @Override
      public void onPartialToolCall(PartialToolCall partialToolCall, PartialToolCallContext context) {
        passOn(() -> caller.onPartialToolCall(partialToolCall, new PartialToolCallContext(watched(context.streamingHandle()))));
      }

      /**
       * The model's streaming handle as the caller gets it: a caller that cancels the stream ends the call (a FAIL
       * decision for {@code cancelled}, counted in the task), then the model's stream is cancelled.
       */
      private StreamingHandle watched(StreamingHandle model) {
        return new StreamingHandle() {
          @Override
          public void cancel() {
            if (done.compareAndSet(false, true)) {
              walk.cancelled(index, attempt, delivered.get());
              ended.set(true);
            }
            model.cancel();
          }

          @Override
          public boolean isCancelled() {
            return model.isCancelled();
          }
        };
      }

      @Override
      public void onCompleteToolCall(CompleteToolCall completeToolCall) {
        passOn(() -> caller.onCompleteToolCall(completeToolCall));
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
        ModelFailure failure = ladder.classifier.classify(response);
        if (failure != null) {
          onFailure(this, failure, null);
          return;
        }
        walk.accepted(index, attempt);
        if (ended.compareAndSet(false, true)) {
          caller.onCompleteResponse(response);
        }
      }

      @Override
      public void onError(Throwable error) {
        if (!done.compareAndSet(false, true)) {
          return;
        }
        onFailure(this, ladder.classifier.classify(error, Duration.ofNanos(ladder.clock.nanoTime() - startedNanos)), error);
      }
    }
  }

  /**
   * Builds an {@link HfrStreamingChatModel}; arguments are checked as they are given. The ladder's settings
   * are the same as {@link HfrChatModel.Builder}'s.
   */
  public static final class Builder extends ModelLadderBuilder<StreamingChatModel, Builder> {

    private Builder() {}

    @Override
    Builder self() {
      return this;
    }

    public HfrStreamingChatModel build() {
      return new HfrStreamingChatModel(ladder("HfrStreamingChatModel", StreamingChatModel::supportedCapabilities));
    }
  }
}
