package dev.hfr.spring.ai;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.springframework.ai.chat.client.ChatClientRequest;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.client.advisor.api.CallAdvisor;
import org.springframework.ai.chat.client.advisor.api.CallAdvisorChain;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisor;
import org.springframework.ai.chat.client.advisor.api.StreamAdvisorChain;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.core.Ordered;
import reactor.core.publisher.Flux;

/**
 * HFR's model ladder on each model request of a {@code ChatClient}: the advisor next to the model, inside Spring AI's
 * tool loop, runs every round's request through an {@link HfrChatModel} whose one rung is the rest of the chain (the
 * application's {@code ChatModel}). A failure is classified and decided as the ladder decides it — T1/T3 retried with
 * full-jitter backoff, a 429 retried no sooner than its {@code Retry-After} (an exhausted quota fails), T6 compressed
 * once, T7 failed, a refusal escalated — and only the model request is repeated, never a tool. It is the one retry
 * layer for model calls: give it a model that does not retry by itself (the starter sets Spring AI's provider retries
 * to none), and leave it out where the application's {@code ChatModel} is already an {@link HfrChatModel}.
 */
public final class HfrModelCallAdvisor implements CallAdvisor, StreamAdvisor {

  /** Innermost but for the model itself: after the tool-calling advisor, so a retry repeats one round's request. */
  public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

  private static final String RUNG = "model";

  private final Supplier<HfrChatModel.Builder> ladders;

  /**
   * @param ladders a fresh ladder builder per request (the starter's {@code HfrChatModel.Builder}: classifier and decision
   *     sink set), to which this advisor adds the one rung
   */
  public HfrModelCallAdvisor(Supplier<HfrChatModel.Builder> ladders) {
    this.ladders = Objects.requireNonNull(ladders, "ladders");
  }

  @Override
  public String getName() {
    return "HFR model ladder";
  }

  @Override
  public int getOrder() {
    return DEFAULT_ORDER;
  }

  @Override
  public ChatClientResponse adviseCall(ChatClientRequest request, CallAdvisorChain chain) {
    AtomicReference<ChatClientResponse> last = new AtomicReference<>();
    ChatModel rest = new RestOfChain() {
      @Override
      public ChatResponse call(Prompt prompt) {
        // a copy per attempt: a chain is walked once
        ChatClientResponse response = chain.copy(HfrModelCallAdvisor.this).nextCall(withMessagesOf(request, prompt));
        last.set(response);
        return response.chatResponse();
      }
    };
    ChatResponse answer = ladders.get().primary(RUNG, rest).build().call(request.prompt());
    ChatClientResponse response = last.get();
    return response == null ? ChatClientResponse.builder().chatResponse(answer).context(request.context()).build()
        : response.mutate().chatResponse(answer).build();
  }

  @Override
  public Flux<ChatClientResponse> adviseStream(ChatClientRequest request, StreamAdvisorChain chain) {
    Map<String, Object> context = request.context();
    ChatModel rest = new RestOfChain() {
      @Override
      public ChatResponse call(Prompt prompt) {
        throw new UnsupportedOperationException("a stream is streamed");
      }

      @Override
      public Flux<ChatResponse> stream(Prompt prompt) {
        return chain.copy(HfrModelCallAdvisor.this).nextStream(withMessagesOf(request, prompt))
            .mapNotNull(ChatClientResponse::chatResponse);
      }
    };
    return ladders.get().primary(RUNG, rest).build().stream(request.prompt())
        .map(chunk -> ChatClientResponse.builder().chatResponse(chunk).context(context).build());
  }

  /**
   * The request with the messages the ladder sends (the same, or compressed after an overflow) and its own options: the
   * ladder's merge of options per rung is for rungs of other providers, and would list the request's tools twice here.
   */
  private static ChatClientRequest withMessagesOf(ChatClientRequest request, Prompt sent) {
    return request.mutate().prompt(request.prompt().mutate().messages(sent.getInstructions()).build()).build();
  }

  /** The rest of the chain as the ladder's one rung. */
  private abstract static class RestOfChain implements ChatModel {
    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }
  }
}
