package dev.hfr.spring.boot.config;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigLoader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ByteArrayResource;

/**
 * The full example of docs/CONFIG.md, pasted into application.yml (tool names in brackets), binds without an
 * unknown key and gives the same configuration as the file itself: the properties and the file share one schema.
 * A key added to the runtime and documented there fails this test until {@link HfrProperties} has it too.
 */
class DocumentedConfigurationTest {

  private static final Pattern FULL_EXAMPLE = Pattern.compile("## Full example\\s+```yaml\\n(.*?)```", Pattern.DOTALL);
  /** A quoted tool key of the file, {@code "ShopTools.search":}, written the Spring way, {@code "[ShopTools.search]":}. */
  private static final Pattern TOOL_KEY = Pattern.compile("\"([A-Za-z0-9_.]+\\.[A-Za-z0-9_]+)\":");

  @Test
  void theDocumentedFileBindsAsPropertiesToTheSameConfiguration() throws Exception {
    String file = fullExample();
    // Two differences docs/SPRING.md tells Spring users about: tool names in brackets, and "no limit" left out
    // rather than written as null (Spring Boot reports a property bound to nothing as unknown).
    String applicationYml = TOOL_KEY.matcher(file).replaceAll(m -> Matcher.quoteReplacement("\"[" + m.group(1) + "]\":"))
        .replaceAll("(?m)^\\s*max_cost: null.*\n", "");

    HfrProperties properties = bind(applicationYml);
    HfrConfig fromProperties = HfrPropertiesConfig.toConfig(properties, PropertyOrigins.none());
    HfrConfig fromFile = HfrConfigLoader.parse(file, "CONFIG.md");

    assertThat(fromProperties.retry()).isEqualTo(fromFile.retry());
    assertThat(fromProperties.degradation()).isEqualTo(fromFile.degradation());
    assertThat(fromProperties.idempotency()).isEqualTo(fromFile.idempotency());
    assertThat(fromProperties.verification()).isEqualTo(fromFile.verification());
    assertThat(fromProperties.circuitBreaker()).isEqualTo(fromFile.circuitBreaker());
    assertThat(fromProperties.telemetry()).isEqualTo(fromFile.telemetry());
    assertThat(fromProperties.limits()).isEqualTo(fromFile.limits());
    assertThat(fromProperties.configuredTools()).containsExactlyElementsOf(fromFile.configuredTools());
    assertThat(fromProperties.configuredTenants()).containsExactlyElementsOf(fromFile.configuredTenants());
    assertThat(fromProperties.tenant("acme")).isEqualTo(fromFile.tenant("acme"));
  }

  private static String fullExample() throws Exception {
    String doc = Files.readString(Path.of("..", "docs", "CONFIG.md"), StandardCharsets.UTF_8);
    Matcher m = FULL_EXAMPLE.matcher(doc);
    assertThat(m.find()).as("docs/CONFIG.md has its full example").isTrue();
    return m.group(1);
  }

  private static HfrProperties bind(String yaml) throws Exception {
    PropertySource<?> source = new YamlPropertySourceLoader()
        .load("application.yml", new ByteArrayResource(yaml.getBytes(StandardCharsets.UTF_8))).get(0);
    Binder binder = new Binder(ConfigurationPropertySources.from(source));
    BindHandler everyKeyKnown = new NoUnboundElementsBindHandler(BindHandler.DEFAULT);
    return binder.bind("hfr", Bindable.of(HfrProperties.class), everyKeyKnown).get();
  }
}
