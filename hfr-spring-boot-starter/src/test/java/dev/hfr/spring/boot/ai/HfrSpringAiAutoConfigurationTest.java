package dev.hfr.spring.boot.ai;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.junit.openai.Reply;
import dev.hfr.junit.openai.ScriptedOpenAiServer;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.escalate.EscalationQueue;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelRefusalException;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.ai.HfrChatModel;
import dev.hfr.spring.ai.HfrToolCallbacks;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.actuate.HfrActuatorAutoConfiguration;
import dev.hfr.spring.boot.actuate.HfrEndpoint;
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

/**
 * The tool callbacks and the chat-model builder a Boot application with Spring AI gets without writing a {@code @Bean},
 * and where the model ladder's escalations end up: the starter's escalation queue and {@code /actuator/hfr}.
 */
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
  void aModelsRefusalWaitsInTheStartersEscalationQueueWithItsEvidenceAndTheEndpointListsIt() {
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start()) {
      llm.script("gpt-4o", Reply.contentFilterFinish());
      app.withConfiguration(AutoConfigurations.of(HfrActuatorAutoConfiguration.class))
          .withPropertyValues("management.endpoints.web.exposure.include=hfr").run(context -> {
        HfrChatModel model = context.getBean(HfrChatModel.Builder.class).primary("gpt-4o", openAi(llm, "gpt-4o")).build();

        try (TaskScope task = context.getBean(Hfr.class).openTask(TaskSpec.builder("acme", "conversation-2").build())) {
          assertThatThrownBy(() -> model.call(new Prompt("write something nasty"))).isInstanceOf(ModelRefusalException.class);
        }

        assertThat(context.getBean(EscalationQueue.class).pending()).singleElement().satisfies(e -> {
          assertThat(e.tool()).isEqualTo("model:gpt-4o");
          assertThat(e.tenant()).isEqualTo("acme");
          assertThat(e.taskId()).isEqualTo("conversation-2");
          assertThat(e.risk()).isEqualTo(Risk.R0);
          assertThat(e.fault()).isEqualTo(Fault.T8);
          assertThat(e.reason()).isEqualTo(Reason.POLICY_REFUSAL);
          assertThat(e.suggestion()).contains("refused");
          assertThat(e.decisions()).singleElement().satisfies(d -> {
            assertThat(d.tool()).isEqualTo("model:gpt-4o");
            assertThat(d.action()).isEqualTo(Action.ESCALATE);
            assertThat(d.taskId()).isEqualTo("conversation-2");
          });
        });
        HfrEndpoint.Report report = context.getBean(HfrEndpoint.class).report();
        assertThat(report.escalations().pending()).isEqualTo(1);
        assertThat(report.escalations().oldest()).singleElement().satisfies(e -> {
          assertThat(e.tool()).isEqualTo("model:gpt-4o");
          assertThat(e.taskId()).isEqualTo("conversation-2");
          assertThat(e.fault()).isEqualTo("T8");
          assertThat(e.reason()).isEqualTo("policy_refusal");
          assertThat(e.suggestion()).contains("refused");
        });
      });
    }
  }

  @Test
  void anExhaustedLadderAtHighCriticalityWaitsInTheQueueNamingTheRungAHumanMayAllow() {
    try (ScriptedOpenAiServer llm = ScriptedOpenAiServer.start()) {
      llm.script("gpt-4o", Reply.serverError(500), Reply.serverError(502), Reply.serverError(503));
      llm.script("gpt-4o-mini", Reply.text("unused"));
      app.run(context -> {
        HfrChatModel model = context.getBean(HfrChatModel.Builder.class)
            .primary("gpt-4o", openAi(llm, "gpt-4o"))
            .fallback(DegradeLevel.L3, "gpt-4o-mini", openAi(llm, "gpt-4o-mini"))
            .criticality(Criticality.Level.HIGH)
            .sleeper(nanos -> { })
            .build();

        assertThatThrownBy(() -> model.call(new Prompt("hello"))).isInstanceOf(ModelCallFailedException.class);

        assertThat(context.getBean(EscalationQueue.class).pending()).singleElement().satisfies(e -> {
          assertThat(e.tool()).isEqualTo("model:gpt-4o");
          assertThat(e.tenant()).isEqualTo(Hfr.DEFAULT_TENANT);
          assertThat(e.taskId()).as("outside a task").isEmpty();
          assertThat(e.criticality()).isEqualTo(Criticality.Level.HIGH);
          assertThat(e.fault()).isEqualTo(Fault.T1);
          assertThat(e.reason()).isEqualTo(Reason.NO_SAFE_ALTERNATIVE);
          assertThat(e.attempts()).isEqualTo(3);
          assertThat(e.suggestion()).contains("gpt-4o-mini (L3)");
          assertThat(e.decisions()).extracting(DecisionEvent::action)
              .containsExactly(Action.RETRY, Action.RETRY, Action.ESCALATE);
        });
        assertThat(llm.remaining("gpt-4o-mini")).as("L3 is not run without a human at HIGH").isEqualTo(1);
      });
    }
  }

  private static OpenAiChatModel openAi(ScriptedOpenAiServer llm, String model) {
    return OpenAiChatModel.builder()
        .options(OpenAiChatOptions.builder().baseUrl(llm.baseUrl()).apiKey("test-key").model(model).maxRetries(0)
            .timeout(Duration.ofSeconds(60)).build())
        .build();
  }

  @Test
  void withoutTheSpringAiAdapterThereIsNoProvider() {
    app.withClassLoader(new FilteredClassLoader(HfrToolCallbacks.class)).run(context ->
        assertThat(context).doesNotHaveBean("hfrToolCallbacks").doesNotHaveBean(HfrChatModel.Builder.class));
  }
}
