package dev.hfr.runtime.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A module's section of hfr.yaml: accepted only because a reader is registered for it, read from the same
 * tree, its problems reported with the file's others by file, line, column and key. The section used here
 * is registered by this module's test resources ({@code META-INF/services}).
 */
class ConfigSectionTest {

  /** What the test section reads. */
  record Greeting(String text, boolean loud) {}

  /** {@code hfr.greeting: {text: ..., loud: ...}}, registered for the tests. */
  public static final class GreetingSection implements ConfigSection<Greeting> {
    static final Greeting DEFAULTS = new Greeting("hello", false);

    @Override public String key() { return "greeting"; }

    @Override public Class<Greeting> type() { return Greeting.class; }

    @Override public List<String> keys() { return List.of("text", "loud"); }

    @Override public Greeting defaults() { return DEFAULTS; }

    @Override
    public Greeting read(YamlNode section, ConfigProblems problems) {
      problems.checkKeys(section, keys());
      YamlNode text = section.get("text");
      YamlNode loud = section.get("loud");
      if (text != null && !text.isString()) {
        problems.problem(text, "must be a text, was " + text.describe());
      }
      return new Greeting(text == null ? DEFAULTS.text() : text.text(), loud != null && "true".equals(loud.text()));
    }
  }

  @Test
  void aRegisteredSectionIsReadFromHfrYaml() {
    HfrConfig config = HfrConfigLoader.parse("""
        hfr:
          retry: {base_delay_ms: 100}
          greeting: {text: bonjour, loud: true}
        """, "hfr.yaml");
    assertThat(config.section(new GreetingSection())).isEqualTo(new Greeting("bonjour", true));
    assertThat(config.retry().baseDelayMs()).isEqualTo(100);
  }

  @Test
  void withoutTheSectionTheConfigurationHoldsItsDefaults() {
    assertThat(HfrConfigLoader.parse("hfr: {version: \"1.0\"}", "hfr.yaml").section(new GreetingSection()))
        .isSameAs(GreetingSection.DEFAULTS);
    assertThat(HfrConfig.defaults().section(new GreetingSection())).isSameAs(GreetingSection.DEFAULTS);
  }

  @Test
  void theSectionsProblemsAreReportedWithTheFilesOthersByPlaceAndKey() {
    assertThatThrownBy(() -> HfrConfigLoader.parse("""
        hfr:
          retry: {base_delay_ms: -1}
          greeting:
            text: 42
            lowd: true
        """, "hfr.yaml"))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("hfr.yaml:2:")
        .hasMessageContaining("hfr.yaml:4:11 hfr.greeting.text: must be a text, was 42")
        .hasMessageContaining("hfr.yaml:5:5 hfr.greeting.lowd: unknown key; did you mean `loud`?");
  }

  @Test
  void aKeyWithoutARegisteredReaderIsStillUnknown() {
    assertThatThrownBy(() -> HfrConfigLoader.parse("hfr:\n  salutation: {text: hi}\n", "hfr.yaml"))
        .isInstanceOf(HfrConfigException.class)
        .hasMessageContaining("hfr.salutation: unknown key")
        .hasMessageContaining("greeting");
  }
}
