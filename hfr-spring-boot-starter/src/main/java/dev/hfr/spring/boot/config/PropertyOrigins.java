package dev.hfr.spring.boot.config;

import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;

/** Where a property was set (file and line, or the property source), for error messages. */
public final class PropertyOrigins {

  private final Iterable<ConfigurationPropertySource> sources;

  private PropertyOrigins(Iterable<ConfigurationPropertySource> sources) {
    this.sources = sources;
  }

  /** The origins of the environment's properties. */
  public static PropertyOrigins of(Environment environment) {
    return new PropertyOrigins(ConfigurationPropertySources.get(environment));
  }

  /** Origins of nothing: problems name their property only. */
  public static PropertyOrigins none() {
    return new PropertyOrigins(java.util.List.of());
  }

  /**
   * Where {@code property} was set, or {@code null} when no source says. A list element without an origin of its
   * own (a comma-separated value) and a section (a problem about a whole map) take the nearest enclosing property's.
   */
  public String describe(String property) {
    for (String name = property; name != null; name = parent(name)) {
      ConfigurationPropertyName key = ConfigurationPropertyName.ofIfValid(name);
      if (key == null) {
        continue;
      }
      for (ConfigurationPropertySource source : sources) {
        ConfigurationProperty found = source.getConfigurationProperty(key);
        if (found != null) {
          Origin origin = found.getOrigin();
          return origin != null ? origin.toString() : source.getUnderlyingSource().toString();
        }
      }
    }
    return null;
  }

  /** The enclosing property: the name without its last element ({@code .key} or {@code [key]}). */
  private static String parent(String name) {
    int last = -1;
    boolean inBrackets = false;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '[' && !inBrackets) {
        last = i;
        inBrackets = true;
      } else if (c == ']') {
        inBrackets = false;
      } else if (c == '.' && !inBrackets) {
        last = i;
      }
    }
    return last <= 0 ? null : name.substring(0, last);
  }

}
