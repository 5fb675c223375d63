package dev.hfr.samples.spring;

import dev.hfr.junit.openai.ScriptedOpenAiServer;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Points Spring AI's OpenAI client at the sample's own "LLM": when {@code spring.ai.openai.base-url} is not set, a
 * {@link ScriptedOpenAiServer} playing {@link ScriptedShopModel} is started on 127.0.0.1 and its address becomes the
 * base URL, so the sample runs with no key and no network. Set the property (and a key) to talk to a real endpoint.
 */
public final class ScriptedLlmEnvironment implements EnvironmentPostProcessor {

  private static ScriptedOpenAiServer server;

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    if (environment.containsProperty("spring.ai.openai.base-url")) {
      return;
    }
    environment.getPropertySources().addFirst(new MapPropertySource("scripted-llm", Map.of(
        "spring.ai.openai.base-url", scriptedServer().baseUrl(),
        "spring.ai.openai.api-key", "scripted-llm-needs-no-key",
        "spring.ai.openai.chat.model", ScriptedShopModel.MODEL)));
  }

  /** One server per JVM: the applications of a test run share it; it stops with the JVM (daemon threads). */
  private static synchronized ScriptedOpenAiServer scriptedServer() {
    if (server == null) {
      server = ScriptedOpenAiServer.start().answerEveryRequest(ScriptedShopModel.MODEL, ScriptedShopModel::answer);
    }
    return server;
  }
}
