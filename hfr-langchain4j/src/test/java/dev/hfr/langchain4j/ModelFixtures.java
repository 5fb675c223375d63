package dev.hfr.langchain4j;

import dev.hfr.langchain4j.http.ObservingHttpClientBuilder;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.junit.openai.StreamingOpenAiServer;
import dev.langchain4j.model.chat.ChatModel;
import dev.langchain4j.model.chat.StreamingChatModel;
import dev.langchain4j.model.openai.OpenAiChatModel;
import dev.langchain4j.model.openai.OpenAiStreamingChatModel;
import java.time.Duration;

/** Real LangChain4j OpenAI clients pointed at the scripted server. */
final class ModelFixtures {

  private ModelFixtures() {}

  /** An OpenAI client for {@code modelName} without its own retries, keeping error headers. */
  static ChatModel openAi(ScriptedOpenAiServer server, String modelName) {
    return openAi(server, modelName, Duration.ofSeconds(10));
  }

  static ChatModel openAi(ScriptedOpenAiServer server, String modelName, Duration timeout) {
    return OpenAiChatModel.builder()
        .baseUrl(server.baseUrl())
        .apiKey("test-key")
        .modelName(modelName)
        .maxRetries(0)
        .timeout(timeout)
        .httpClientBuilder(ObservingHttpClientBuilder.jdk())
        .build();
  }

  /** A streaming OpenAI client for {@code modelName} against the streaming server, keeping error headers. */
  static StreamingChatModel openAiStreaming(StreamingOpenAiServer server, String modelName) {
    return OpenAiStreamingChatModel.builder()
        .baseUrl(server.baseUrl())
        .apiKey("test-key")
        .modelName(modelName)
        .timeout(Duration.ofSeconds(10))
        .httpClientBuilder(ObservingHttpClientBuilder.jdk())
        .build();
  }
}
