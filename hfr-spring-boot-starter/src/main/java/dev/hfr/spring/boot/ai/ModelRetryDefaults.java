package dev.hfr.spring.boot.ai;

import java.util.List;
import java.util.Map;
import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.Environment;
import org.springframework.core.env.MapPropertySource;

/**
 * One retry layer for model calls, decided here. By default HFR's model ladder retries ({@code HfrModelCallAdvisor} on
 * every {@code ChatClient}, or the application's own {@code HfrChatModel}), so Spring AI's provider retries default to
 * none: {@code spring.ai.retry.max-attempts} (the {@code RetryTemplate} of spring-ai-retry, 10 by default, used by
 * Mistral, Ollama, DeepSeek, Google GenAI) and {@code spring.ai.openai.max-retries} (the OpenAI SDK's own, 3 by
 * default) are 0 unless the application sets them. An application that sets one of them above 0 chose Spring AI's
 * retries: then HFR's advisor stays out ({@link #springAiRetriesChosen}) and the two never multiply.
 *
 * <p>Added last, below every property source of the application's own.
 */
public final class ModelRetryDefaults implements EnvironmentPostProcessor {

  /** The property source's name. */
  public static final String NAME = "hfr-model-retry-defaults";

  /** The provider retry settings that default to none under HFR; any above 0 means the application chose Spring AI's. */
  static final Map<String, Object> NO_PROVIDER_RETRIES = Map.of(
      "spring.ai.retry.max-attempts", 0,
      "spring.ai.openai.max-retries", 0);

  /** Set by an application, these choose Spring AI's retries too ({@code chat.} overrides the common OpenAI one). */
  private static final List<String> CHOICES =
      List.of("spring.ai.retry.max-attempts", "spring.ai.openai.max-retries", "spring.ai.openai.chat.max-retries");

  /** The OpenAI properties' own default, which {@code chat.max-retries} keeps unless set (then the common one applies). */
  private static final int OPENAI_DEFAULT_MAX_RETRIES = 3;

  @Override
  public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
    environment.getPropertySources().addLast(new MapPropertySource(NAME, NO_PROVIDER_RETRIES));
  }

  /** Whether the application set one of Spring AI's retry settings above 0 (so Spring AI's retries act, not HFR's). */
  static boolean springAiRetriesChosen(Environment environment) {
    for (String key : CHOICES) {
      Integer value = environment.getProperty(key, Integer.class);
      if (value != null && value > 0 && !(key.endsWith("chat.max-retries") && value == OPENAI_DEFAULT_MAX_RETRIES)) {
        return true;
      }
    }
    return false;
  }
}
