package dev.hfr.spring.ai;

import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import java.time.Duration;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;

/** Spring AI's real OpenAI model (the official OpenAI Java SDK) as the adapter's tests point it at a loopback server. */
final class LoopbackOpenAi {

  /**
   * A request's bound in tests that are not about timeouts: only a hang detector. With 5 s, a request that a
   * loaded machine held longer became a T3 timeout instead of the failure the server scripted.
   */
  static final Duration HANG = Duration.ofSeconds(60);

  private static boolean warm;

  private LoopbackOpenAi() {}

  /** {@code model} at {@code baseUrl}, without the SDK's own retries (the ladder under test decides). */
  static ChatModel model(String baseUrl, String model) {
    return OpenAiChatModel.builder()
        .options(OpenAiChatOptions.builder().baseUrl(baseUrl).apiKey("test-key").model(model).maxRetries(0)
            .timeout(HANG).build())
        .build();
  }

  /**
   * One answer and one failure through the SDK, once per JVM, before a test's own requests: the first exchange
   * loads the SDK, its Kotlin runtime, Jackson modules and HTTP client (2 s on a quiet 2-core machine, over 30 s
   * under load), which was billed to whichever test of a class ran first.
   */
  static synchronized void warmUp() {
    if (warm) {
      return;
    }
    try (ScriptedOpenAiServer server = ScriptedOpenAiServer.start()) {
      server.script("warm-up", Reply.text("ready"), Reply.serverError(500));
      ChatModel model = model(server.baseUrl(), "warm-up");
      model.call(new Prompt("warm up"));
      try {
        model.call(new Prompt("warm up a failure"));
      } catch (RuntimeException expected) {
        // the scripted 500: its exception classes are loaded now
      }
    }
    warm = true;
  }
}
