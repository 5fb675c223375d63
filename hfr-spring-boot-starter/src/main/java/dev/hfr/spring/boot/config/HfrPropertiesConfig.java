package dev.hfr.spring.boot.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.config.HfrConfig;
import dev.hfr.runtime.config.HfrConfigException;
import dev.hfr.runtime.config.HfrConfigLoader;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns the bound {@link HfrProperties} into the runtime's {@link HfrConfig}. The properties are written out as the
 * §5.2 YAML tree (snake_case keys, unset values left out) and read by {@link HfrConfigLoader}, so ranges, enum
 * spellings and the safety rules are checked by the same code that checks {@code hfr.yaml}; each problem is then
 * reported under the property's own name and where it was set ({@link PropertyOrigins}), not the line of a YAML
 * text the user never wrote.
 */
public final class HfrPropertiesConfig {

  private static final ObjectMapper TREE = JsonMapper.builder()
      .propertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
      .defaultPropertyInclusion(JsonInclude.Value.construct(JsonInclude.Include.NON_NULL, JsonInclude.Include.NON_NULL))
      .build();
  private static final YAMLMapper YAML = new YAMLMapper();
  private static final String SOURCE = "hfr.* properties";
  /** A quoted key of the runtime's key paths: {@code tools["ShopTools.search"]}. */
  private static final Pattern QUOTED_KEY = Pattern.compile("\\[\"([^\"]*)\"]");

  private HfrPropertiesConfig() {}

  /**
   * The configuration the properties describe.
   *
   * @throws HfrPropertiesException naming every property the runtime refuses
   */
  public static HfrConfig toConfig(HfrProperties properties, PropertyOrigins origins) {
    try {
      return HfrConfigLoader.parse(yaml(properties), SOURCE);
    } catch (HfrConfigException e) {
      throw translate(e, origins);
    }
  }

  /**
   * Checks the per-tool entries against the tools the application has (unknown names, an R3 tool given retries).
   *
   * @throws HfrPropertiesException naming the offending properties
   */
  public static void check(HfrConfig config, Iterable<ToolDescriptor> tools, PropertyOrigins origins) {
    try {
      config.check(tools);
    } catch (HfrConfigException e) {
      throw translate(e, origins);
    }
  }

  /** The §5.2 YAML text the properties stand for. */
  static String yaml(HfrProperties properties) {
    ObjectNode hfr = TREE.valueToTree(properties);
    // The Spring-only keys: the runtime's file has no place for them.
    hfr.remove("mode");
    hfr.remove("temporal");
    pruneEmpty(hfr);
    ObjectNode root = TREE.createObjectNode();
    root.set("hfr", hfr);
    try {
      return YAML.writeValueAsString(root);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("writing the hfr.* properties as YAML failed", e);
    }
  }

  /** An empty section (a record bound from no key but the Spring-only one) is left out, as the file would. */
  private static boolean pruneEmpty(JsonNode node) {
    if (!(node instanceof ObjectNode object)) {
      return false;
    }
    for (Iterator<Map.Entry<String, JsonNode>> it = object.fields(); it.hasNext(); ) {
      if (pruneEmpty(it.next().getValue())) {
        it.remove();
      }
    }
    return object.isEmpty();
  }

  private static HfrPropertiesException translate(HfrConfigException e, PropertyOrigins origins) {
    List<HfrPropertiesException.Problem> problems = new ArrayList<>();
    for (HfrConfigException.Problem p : e.problems()) {
      String property = propertyName(p.key());
      problems.add(new HfrPropertiesException.Problem(property, origins.describe(property), p.why()));
    }
    return new HfrPropertiesException(problems);
  }

  /**
   * The Spring property a runtime key path names: {@code hfr.tools["ShopTools.search"].retry.retry_on[2]} becomes
   * {@code hfr.tools[ShopTools.search].retry.retry-on[2]}.
   */
  static String propertyName(String keyPath) {
    StringBuilder out = new StringBuilder();
    Matcher m = QUOTED_KEY.matcher(keyPath);
    int at = 0;
    while (m.find()) {
      out.append(keyPath.substring(at, m.start()).replace('_', '-')).append('[').append(m.group(1)).append(']');
      at = m.end();
    }
    out.append(keyPath.substring(at).replace('_', '-'));
    return out.toString();
  }
}
