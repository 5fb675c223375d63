package dev.hfr.spring.ai;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import reactor.core.publisher.Flux;

/**
 * A model whose answers are written down in advance — tool calls (several in one answer for parallel tool calls), text
 * or a failure — for a {@code ChatClient} whose tool loop is Spring AI's own. It keeps every prompt it was sent; its stream
 * answers on a thread of Reactor's, as a model client's does.
 */
final class ScriptedChatModel implements ChatModel {

  private final Deque<Object> answers = new ArrayDeque<>();
  final List<Prompt> prompts = new CopyOnWriteArrayList<>();

  /** An answer asking for these tool calls, each {@code name, jsonArguments}. */
  ScriptedChatModel thenCall(String... nameAndArguments) {
    List<AssistantMessage.ToolCall> calls = new java.util.ArrayList<>();
    for (int i = 0; i < nameAndArguments.length; i += 2) {
      calls.add(new AssistantMessage.ToolCall("call_" + (answers.size() + 1) + "_" + i, "function", nameAndArguments[i],
          nameAndArguments[i + 1]));
    }
    answers.add(AssistantMessage.builder().content("").toolCalls(calls).build());
    return this;
  }

  ScriptedChatModel thenSay(String text) {
    answers.add(new AssistantMessage(text));
    return this;
  }

  /** An answer that fails with {@code failure}, as a provider's client throws it. */
  ScriptedChatModel thenFail(RuntimeException failure) {
    answers.add(failure);
    return this;
  }

  @Override
  public ChatOptions getOptions() {
    return ToolCallingChatOptions.builder().build();
  }

  @Override
  public synchronized ChatResponse call(Prompt prompt) {
    prompts.add(prompt);
    Object next = answers.poll();
    if (next == null) {
      throw new IllegalStateException("the script has no answer left for: " + prompt.getInstructions());
    }
    if (next instanceof RuntimeException failure) {
      throw failure;
    }
    return new ChatResponse(List.of(new Generation((AssistantMessage) next)));
  }

  @Override
  public Flux<ChatResponse> stream(Prompt prompt) {
    return Flux.defer(() -> Flux.just(call(prompt))).delayElements(Duration.ofMillis(1));
  }

  /** The results the tools sent back in the last prompt, in order. */
  List<String> lastToolResults() {
    return prompts.get(prompts.size() - 1).getInstructions().stream()
        .filter(m -> m instanceof org.springframework.ai.chat.messages.ToolResponseMessage)
        .map(m -> (org.springframework.ai.chat.messages.ToolResponseMessage) m)
        .reduce((a, b) -> b)
        .map(m -> m.getResponses().stream().map(r -> r.responseData()).toList())
        .orElse(List.of());
  }
}
