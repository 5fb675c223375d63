package dev.hfr.spring.boot.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.annotations.Fault;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.ai.HfrChatModel;
import dev.hfr.spring.ai.HfrToolCallbacks;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.ai.catalog.CatalogApplication;
import dev.hfr.spring.boot.ai.catalog.CatalogTools;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.openai.OpenAiChatModel;
import org.springframework.ai.openai.OpenAiChatOptions;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The tool callbacks a Boot application with Spring AI gets without writing a {@code @Bean}. */
class HfrSpringAiAutoConfigurationTest {

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrSpringAiAutoConfiguration.class))
      .withUserConfiguration(CatalogApplication.class)
      .withPropertyValues("hfr.idempotency.ledger=memory", "hfr.retry.base-delay-ms=0", "hfr.retry.max-delay-ms=0");

  @Test
  void theSpringAiToolsOfTheProtectedBeansAreOfferedAndEachCallRunsThroughHfr() {
    app.run(context -> {
      ToolCallback[] callbacks = context.getBean("hfrToolCallbacks", ToolCallbackProvider.class).getToolCallbacks();
      assertThat(Arrays.stream(callbacks).map(c -> c.getToolDefinition().name()))
          .as("PlainTools has no @Tool method: not offered to Spring AI").containsExactly("price");

      CatalogTools tools = context.getBean(CatalogTools.class);
      tools.refuseNext.set(1);
      assertThat(callbacks[0].call("{\"sku\":\"SKU-1\"}")).isEqualTo("1990");
      assertThat(tools.calls).as("the refused connection was retried by HFR, on the bean the context holds").hasValue(2);
    });
  }

  @Test
  void anApplicationsOwnProviderOfThatNameWins() {
    ToolCallbackProvider own = () -> new ToolCallback[0];
    app.withBean("hfrToolCallbacks", ToolCallbackProvider.class, () -> own).run(context ->
        assertThat(context.getBean("hfrToolCallbacks")).isSameAs(own));
  }

  @Test
  void aChatModelBuilderComesWiredToTheEnginesDecisionSinkAndTasks() {
    List<DecisionEvent> events = new CopyOnWriteArrayList<>();
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start()) {
      llm.script("gpt-4o", Reply.serverError(503), Reply.text("ok"));
      app.withBean(DecisionSink.class, () -> events::add).run(context -> {
        HfrChatModel.Builder builder = context.getBean(HfrChatModel.Builder.class);
        assertThat(context.getBean(HfrChatModel.Builder.class)).as("a fresh builder wherever one is injected")
            .isNotSameAs(builder);
        HfrChatModel model = builder.primary("gpt-4o", OpenAiChatModel.builder()
                .options(OpenAiChatOptions.builder().baseUrl(llm.baseUrl()).apiKey("test-key").model("gpt-4o").maxRetries(0)
                    .timeout(Duration.ofSeconds(5)).build())
                .build())
            .sleeper(nanos -> { })
            .build();

        try (TaskScope task = context.getBean(Hfr.class).openTask(TaskSpec.builder("acme", "conversation-1").build())) {
          assertThat(model.call(new Prompt("hello")).getResult().getOutput().getText()).isEqualTo("ok");
          assertThat(task.report().calls()).as("the model call counts in the task").isEqualTo(1);
          assertThat(task.report().attempts()).isEqualTo(2);
        }
      });
    }
    assertThat(events).as("the application's sink, the one the engine writes to").singleElement().satisfies(e -> {
      assertThat(e.tool()).isEqualTo("model:gpt-4o");
      assertThat(e.fault()).isEqualTo(Fault.T1);
      assertThat(e.action()).isEqualTo(Action.RETRY);
      assertThat(e.taskId()).isEqualTo("conversation-1");
    });
  }

  @Test
  void withoutTheSpringAiAdapterThereIsNoProvider() {
    app.withClassLoader(new FilteredClassLoader(HfrToolCallbacks.class)).run(context ->
        assertThat(context).doesNotHaveBean("hfrToolCallbacks").doesNotHaveBean(HfrChatModel.Builder.class));
  }
}
