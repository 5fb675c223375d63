package dev.hfr.spring.boot.config;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.config.ConfigKeys;
import dev.hfr.spring.boot.HfrAutoConfiguration;
import dev.hfr.spring.boot.shop.ShopApplication;
import java.io.InputStream;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Every {@code hfr.*} property the starter binds ({@link HfrProperties}, read by reflection) has its entry in the
 * registry the configuration reference is written from ({@link ConfigKeys}), and every entry is a property: a
 * property added without an entry, or an entry without a property, fails here. The defaults the properties' IDE
 * descriptions state (written by hand in {@link HfrProperties}' {@code @param}s) are held to the engine's too.
 */
@DisplayName("Every Spring hfr.* property is in the configuration reference")
class PropertyReferenceTest {

  @Test
  @DisplayName("each property HfrProperties binds has an entry, and each entry names a property")
  void everyPropertyHasAnEntry() {
    List<String> properties = new ArrayList<>();
    List<String> nodes = new ArrayList<>();
    collect("hfr", HfrProperties.class, properties, nodes);
    List<ConfigKeys.Key> entries = new ArrayList<>(ConfigKeys.all());
    entries.addAll(ConfigKeys.springOnly());

    TreeSet<String> missing = new TreeSet<>();
    for (String property : properties) {
      boolean documented = entries.stream().anyMatch(k -> k.springProperty().equals(property)
          || k.isSection() && (property.startsWith(k.springProperty() + ".") || property.startsWith(k.springProperty() + "[")));
      if (!documented) {
        missing.add(property);
      }
    }
    assertThat(missing).as("properties without an entry in ConfigKeys (dev.hfr.runtime.config)").isEmpty();

    TreeSet<String> stale = new TreeSet<>();
    for (ConfigKeys.Key k : entries) {
      if (!properties.contains(k.springProperty()) && !nodes.contains(k.springProperty())) {
        stale.add(k.springProperty());
      }
    }
    assertThat(stale).as("entries of ConfigKeys that HfrProperties does not bind").isEmpty();
  }

  @Test
  @DisplayName("an application that sets no hfr.mode runs in the mode the reference gives as its default")
  void theModesDefaultIsTheDocumentedOne() {
    new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
        .withUserConfiguration(ShopApplication.class).withPropertyValues("hfr.idempotency.ledger=memory")
        .run(context -> assertThat(context.getBean(Hfr.class).mode().name())
            .isEqualTo(ConfigKeys.springOnly().get(0).defaultText()));
  }

  @Test
  @DisplayName("the IDE's property descriptions give the same defaults as the reference")
  void theIdesDefaultsAreTheReferences() throws Exception {
    JsonNode metadata;
    try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
      assertThat(in).as("spring-boot-configuration-processor wrote the metadata").isNotNull();
      metadata = new ObjectMapper().readTree(in);
    }
    List<String> differing = new ArrayList<>();
    for (JsonNode property : metadata.get("properties")) {
      String description = property.path("description").asText();
      Matcher stated = STATED_DEFAULT.matcher(description);
      // the pool's record serves the ledger and the fleet, so its descriptions give both defaults
      if (!stated.find() || property.path("sourceType").asText().endsWith("$Pool")) {
        continue;
      }
      String name = property.get("name").asText();
      ConfigKeys.Key key = ConfigKeys.all().stream().filter(k -> k.springProperty().equals(name)).findFirst().orElse(null);
      if (key != null && Double.parseDouble(stated.group(1)) != Double.parseDouble(key.defaultText())) {
        differing.add(name + ": the description says " + stated.group(1) + ", the engine uses " + key.defaultText());
      }
    }
    assertThat(differing).as("fix the @param of HfrProperties").isEmpty();
  }

  /** A number stated as the default in a property's description: {@code (default 200)}. */
  private static final Pattern STATED_DEFAULT = Pattern.compile("default (-?\\d+(?:\\.\\d+)?)\\b");

  /** The leaf properties below {@code prefix} in {@code leaves}, the records and maps on the way in {@code nodes}. */
  private static void collect(String prefix, Class<?> type, List<String> leaves, List<String> nodes) {
    for (RecordComponent c : type.getRecordComponents()) {
      String name = prefix + "." + kebab(c.getName());
      if (c.getType().isRecord()) {
        nodes.add(name);
        collect(name, c.getType(), leaves, nodes);
      } else if (Map.class.isAssignableFrom(c.getType())) {
        nodes.add(name);
        Type value = ((ParameterizedType) c.getGenericType()).getActualTypeArguments()[1];
        // tools are keyed [SimpleClass.method] (brackets keep the dot), tenants by a plain name
        String key = c.getName().equals("tools") ? name + "[<Class.method>]" : name + ".<tenant>";
        collect(key, (Class<?>) value, leaves, nodes);
      } else {
        leaves.add(name);
      }
    }
  }

  private static String kebab(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }
}
