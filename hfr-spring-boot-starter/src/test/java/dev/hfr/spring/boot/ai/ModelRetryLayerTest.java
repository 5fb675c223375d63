package dev.hfr.spring.boot.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.spring.ai.HfrModelCallAdvisor;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.ai.catalog.CatalogApplication;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.openai.autoconfigure.OpenAiChatAutoConfiguration;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One retry layer for model calls: Spring AI's OpenAI model as Boot configures it, against a scripted OpenAI-compatible
 * server on loopback that answers 429 with {@code Retry-After} before it answers.
 */
class ModelRetryLayerTest {

  private static ApplicationContextRunner app(ScriptedOpenAiServer llm) {
    return new ApplicationContextRunner()
        .withInitializer(context -> new ModelRetryDefaults().postProcessEnvironment(context.getEnvironment(), null))
        .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrSpringAiAutoConfiguration.class,
            HfrChatClientAutoConfiguration.class, ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class,
            OpenAiChatAutoConfiguration.class))
        .withUserConfiguration(CatalogApplication.class)
        .withPropertyValues("hfr.idempotency.ledger=memory", "spring.ai.openai.base-url=" + llm.baseUrl(),
            "spring.ai.openai.api-key=test-key", "spring.ai.openai.chat.model=gpt-4o");
  }

  @Test
  void byDefaultHfrRetriesTheModelOnceNoSoonerThanRetryAfterAndTheOpenAiClientDoesNot() {
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start()) {
      llm.script("gpt-4o", Reply.rateLimited(1), Reply.text("ok"));
      app(llm).run(context -> {
        ChatClient chat = context.getBean(ChatClient.Builder.class).build();
        long started = System.nanoTime();

        String answer = chat.prompt().user("hello").call().content();

        assertThat(answer).isEqualTo("ok");
        assertThat(llm.requests("gpt-4o")).as("the 429 and one retry: no retry of the client's own on top").hasSize(2);
        assertThat(System.nanoTime() - started).as("the Retry-After (1 s) was waited").isGreaterThanOrEqualTo(1_000_000_000L);
        assertThat(context.getEnvironment().getProperty("spring.ai.openai.max-retries")).isEqualTo("0");
      });
    }
  }

  @Test
  void anApplicationThatSetsSpringAisRetriesGetsThoseAndNotHfrsOnTop() {
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start()) {
      llm.script("gpt-4o", Reply.serverError(503), Reply.text("ok"));
      app(llm).withPropertyValues("spring.ai.openai.max-retries=1").run(context -> {
        assertThat(context.getBeanProvider(HfrModelCallAdvisor.class).getIfAvailable()).isNull();

        assertThat(context.getBean(ChatClient.Builder.class).build().prompt().user("hello").call().content()).isEqualTo("ok");
        assertThat(llm.requests("gpt-4o")).as("the OpenAI client's one retry").hasSize(2);
      });
    }
  }

  @Test
  void theDefaultsComeBelowEveryPropertyOfTheApplication() {
    try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Object.class).web(WebApplicationType.NONE)
        .run("--spring.main.banner-mode=off", "--spring.ai.retry.max-attempts=4")) {
      assertThat(context.getEnvironment().getPropertySources().contains(ModelRetryDefaults.NAME)).isTrue();
      assertThat(context.getEnvironment().getProperty("spring.ai.openai.max-retries")).isEqualTo("0");
      assertThat(context.getEnvironment().getProperty("spring.ai.retry.max-attempts")).as("the application's own").isEqualTo("4");
      assertThat(ModelRetryDefaults.springAiRetriesChosen(context.getEnvironment())).isTrue();
    }
  }
}
