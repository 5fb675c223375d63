package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.registry.ToolRegistry;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An engine built with a configuration checks it against the tools that exist before it runs a call: a mistake
 * in {@code hfr.yaml} fails {@code Hfr.build()} with the file, the line and the fix, instead of being ignored.
 */
@DisplayName("Hfr.build() checks the configuration against the tools that exist")
class ConfigCheckedAtBuildTest {

  private static final ToolDescriptor SEARCH =
      ToolDescriptor.builder("com.acme.ShopTools", "search", Risk.R0).parameters("q").resultType(String.class).build();
  private static final ToolDescriptor SEND =
      ToolDescriptor.builder("com.acme.MailTools", "send", Risk.R3).parameters("to").resultType(String.class).build();
  private static final ToolRegistry TOOLS = ToolRegistry.of(List.of(() -> List.of(SEARCH, SEND)));

  private static Hfr.Builder builder(String hfrYaml) {
    return Hfr.builder().ledger(new InMemoryLedger()).toolRegistry(TOOLS)
        .config(HfrConfigLoader.parse(hfrYaml, "hfr.yaml"));
  }

  @Test
  @DisplayName("a misspelt tool name under tools: fails build() at its line, with the name it meant")
  void misspeltToolName() {
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> builder("""
        hfr:
          tools:
            ShopTools.serch:
              timeout_ms: 500
        """).build());

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("hfr.yaml:4", "no tool is named ShopTools.serch",
        "did you mean ShopTools.search?");
  }

  @Test
  @DisplayName("a retry override on an R3 tool fails build(): an irreversible write is never retried")
  void retryOverrideOnAnIrreversibleTool() {
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> builder("""
        hfr:
          tools:
            MailTools.send:
              retry:
                max_attempts_per_step: 3
        """).build());

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("hfr.yaml:5", "MailTools.send is R3 (irreversible)");
  }

  @Test
  @DisplayName("with no generated tool at all, the error says where tools come from")
  void noToolsAtAll() {
    HfrConfigException e = catchThrowableOfType(HfrConfigException.class, () -> Hfr.builder()
        .ledger(new InMemoryLedger()).toolRegistry(ToolRegistry.of(List.of()))
        .config(HfrConfigLoader.parse("hfr:\n  tools:\n    ShopTools.search: {timeout_ms: 500}\n", "hfr.yaml")).build());

    assertThat(e).isNotNull();
    assertThat(e.getMessage()).contains("no tool was found at all", "annotation processor path", "checkConfig(false)");
  }

  @Test
  @DisplayName("checkConfig(false): a file shared by several applications names tools this one lacks")
  void optOutForASharedFile() {
    Hfr.Builder shared = builder("""
        hfr:
          tools:
            BillingTools.refund:
              timeout_ms: 500
        """);
    assertThat(catchThrowableOfType(HfrConfigException.class, () -> shared.build().close())).isNotNull();

    assertThatCode(() -> shared.checkConfig(false).build().close()).doesNotThrowAnyException();
  }

  @Test
  @DisplayName("a tool an adapter names when it connects (an MCP server's tracker.search_issues) is left to it at build()")
  void adapterNamedToolsAreLeftToTheAdapter() {
    assertThatCode(() -> builder("""
        hfr:
          tools:
            "tracker.search_issues":
              timeout_ms: 400
        """).build().close()).doesNotThrowAnyException();
  }

  @Test
  @DisplayName("a correct file builds")
  void aCorrectFileBuilds() {
    assertThatCode(() -> builder("""
        hfr:
          tools:
            ShopTools.search:
              retry:
                max_attempts_per_step: 6
        """).build().close()).doesNotThrowAnyException();
  }
}
