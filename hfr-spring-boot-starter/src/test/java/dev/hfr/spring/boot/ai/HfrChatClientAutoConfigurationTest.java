package dev.hfr.spring.boot.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskReport;
import dev.hfr.spring.ai.HfrAdvisor;
import dev.hfr.spring.ai.HfrToolCallback;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.ai.catalog.CatalogApplication;
import dev.hfr.spring.boot.ai.catalog.CatalogTools;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.ai.chat.client.ChatClient;
import org.springframework.ai.chat.client.ChatClientResponse;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.model.ChatModel;
import org.springframework.ai.chat.model.ChatResponse;
import org.springframework.ai.chat.model.Generation;
import org.springframework.ai.chat.prompt.ChatOptions;
import org.springframework.ai.chat.prompt.Prompt;
import org.springframework.ai.model.chat.client.autoconfigure.ChatClientAutoConfiguration;
import org.springframework.ai.model.tool.ToolCallingChatOptions;
import org.springframework.ai.model.tool.autoconfigure.ToolCallingAutoConfiguration;
import org.springframework.ai.tool.ToolCallback;
import org.springframework.ai.tool.ToolCallbackProvider;
import org.springframework.ai.tool.method.MethodToolCallbackProvider;
import org.springframework.ai.tool.resolution.ToolCallbackResolver;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * A {@code ChatClient} from Boot's {@code ChatClient.Builder}, given the tool bean the plain way ({@code
 * defaultTools(catalogTools)}): the starter's advisor makes the call a task and the bean's tools HFR's callbacks.
 */
class HfrChatClientAutoConfigurationTest {

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class, HfrSpringAiAutoConfiguration.class,
          HfrChatClientAutoConfiguration.class, ToolCallingAutoConfiguration.class, ChatClientAutoConfiguration.class))
      .withUserConfiguration(CatalogApplication.class)
      .withPropertyValues("hfr.idempotency.ledger=memory", "hfr.retry.base-delay-ms=0", "hfr.retry.max-delay-ms=0");

  @Test
  void aChatClientFromBootsBuilderRunsEachCallInATaskWithTheBeansToolsProtected() {
    PricingModel model = new PricingModel();
    app.withBean(ChatModel.class, () -> model).run(context -> {
      CatalogTools tools = context.getBean(CatalogTools.class);
      ChatClient chat = context.getBean(ChatClient.Builder.class).defaultTools(tools).build();
      tools.refuseNext.set(1);

      ChatClientResponse response = chat.prompt().user("What does SKU-1 cost?").call().chatClientResponse();

      assertThat(response.chatResponse().getResult().getOutput().getText()).isEqualTo("It costs 1990 cents.");
      assertThat(model.toolsSeen).singleElement().isInstanceOf(HfrToolCallback.class);
      assertThat(tools.calls).as("the refused connection was retried by HFR").hasValue(2);
      TaskReport report = (TaskReport) response.context().get(HfrAdvisor.TASK_REPORT);
      assertThat(report.taskId()).startsWith("chat-");
      assertThat(report.retryCount()).isEqualTo(1);
    });
  }

  @Test
  void aToolSpringAiResolvesByNameFromTheApplicationsProviderOfTheBeanIsProtectedToo() {
    app.withBean(ChatModel.class, PricingModel::new).withUserConfiguration(OwnProvider.class).run(context -> {
      ToolCallback resolved = context.getBean(ToolCallbackResolver.class).resolve("price");

      assertThat(resolved).isInstanceOf(HfrToolCallback.class);
      CatalogTools tools = context.getBean(CatalogTools.class);
      tools.refuseNext.set(1);
      assertThat(resolved.call("{\"sku\":\"SKU-1\"}")).isEqualTo("1990");
      assertThat(tools.calls).as("through the proxy").hasValue(2);
    });
  }

  @Test
  void anApplicationsOwnAdvisorIsTheOneEveryChatClientGets() {
    app.withBean(ChatModel.class, PricingModel::new).withUserConfiguration(OwnAdvisor.class).run(context -> {
      ChatClient chat = context.getBean(ChatClient.Builder.class).defaultTools(context.getBean(CatalogTools.class)).build();

      ChatClientResponse response = chat.prompt().user("What does SKU-1 cost?").call().chatClientResponse();

      assertThat(((TaskReport) response.context().get(HfrAdvisor.TASK_REPORT)).tenant()).isEqualTo("acme");
    });
  }

  /** The application's own provider of the tool bean, and none of the starter's. */
  @Configuration(proxyBeanMethods = false)
  static class OwnProvider {
    @Bean
    ToolCallbackProvider hfrToolCallbacks() {
      return () -> new ToolCallback[0];
    }

    @Bean
    ToolCallbackProvider catalogToolCallbacks(CatalogTools tools) {
      return MethodToolCallbackProvider.builder().toolObjects(tools).build();
    }
  }

  @Configuration(proxyBeanMethods = false)
  static class OwnAdvisor {
    @Bean
    HfrAdvisor myAdvisor(Hfr hfr) {
      return HfrAdvisor.builder(hfr).tenant("acme").build();
    }
  }

  /** Asks for the price of SKU-1, then says it; keeps the tool callbacks it was given. */
  static final class PricingModel implements ChatModel {
    final Deque<AssistantMessage> answers = new ArrayDeque<>(List.of(
        AssistantMessage.builder().content("").toolCalls(List.of(
            new AssistantMessage.ToolCall("call_1", "function", "price", "{\"sku\":\"SKU-1\"}"))).build()));
    volatile List<?> toolsSeen;

    @Override
    public ChatOptions getOptions() {
      return ToolCallingChatOptions.builder().build();
    }

    @Override
    public ChatResponse call(Prompt prompt) {
      toolsSeen = ((ToolCallingChatOptions) prompt.getOptions()).getToolCallbacks();
      AssistantMessage next = answers.poll();
      return new ChatResponse(List.of(new Generation(next != null ? next : new AssistantMessage("It costs "
          + ((org.springframework.ai.chat.messages.ToolResponseMessage) prompt.getInstructions().get(prompt.getInstructions().size() - 1))
              .getResponses().get(0).responseData() + " cents."))));
    }
  }
}
