package dev.hfr.spring.boot.ai;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.spring.ai.HfrToolCallbacks;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.ai.catalog.CatalogApplication;
import dev.hfr.spring.boot.ai.catalog.CatalogTools;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
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
  void withoutTheSpringAiAdapterThereIsNoProvider() {
    app.withClassLoader(new FilteredClassLoader(HfrToolCallbacks.class)).run(context ->
        assertThat(context).doesNotHaveBean("hfrToolCallbacks"));
  }
}
