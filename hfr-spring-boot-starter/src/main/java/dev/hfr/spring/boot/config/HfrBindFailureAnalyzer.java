package dev.hfr.spring.boot.config;

import dev.hfr.runtime.config.Suggestions;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.core.Ordered;
import org.springframework.core.env.EnumerablePropertySource;

/**
 * {@code hfr.*} properties Spring Boot could not bind, told as the runtime tells a bad {@code hfr.yaml}: an unknown
 * key with the key meant ({@code hfr.retry.max-atempts} → {@code max-attempts-per-step}) and the keys allowed there;
 * an enum value with the value meant ({@code hfr.mode: ENFORSE} → {@code ENFORCE}); and the page that lists every
 * key. Ahead of Boot's own analyzers, which say only "left unbound" or "No enum constant".
 */
class HfrBindFailureAnalyzer extends AbstractFailureAnalyzer<BindException> implements Ordered {

  private static final String ACTION = "Fix the property; docs/CONFIG.md lists every key, its range and its default"
      + " (in Spring, keys are written in kebab case: max_attempts_per_step is hfr.retry.max-attempts-per-step).";

  @Override
  public int getOrder() {
    return Ordered.HIGHEST_PRECEDENCE;
  }

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, BindException cause) {
    if (!cause.getName().toString().equals("hfr") && !cause.getName().toString().startsWith("hfr.")) {
      return null;
    }
    UnboundConfigurationPropertiesException unbound = findCause(cause, UnboundConfigurationPropertiesException.class);
    if (unbound != null) {
      List<String> lines = new ArrayList<>();
      for (ConfigurationProperty p : unbound.getUnboundProperties()) {
        lines.add(unknownKey(p));
      }
      return new FailureAnalysis((lines.size() == 1 ? "1 unknown HFR property" : lines.size() + " unknown HFR properties")
          + ":\n" + lines.stream().map(l -> "  " + l).collect(Collectors.joining("\n")), ACTION, cause);
    }
    Class<?> target = cause.getTarget().getType().resolve();
    if (target != null && target.isEnum()) {
      Object value = cause.getProperty() == null ? null : cause.getProperty().getValue();
      List<String> allowed = Arrays.stream(target.getEnumConstants()).map(c -> ((Enum<?>) c).name()).toList();
      String meant = value == null ? null : Suggestions.closest(String.valueOf(value).trim(), allowed);
      return new FailureAnalysis(cause.getName() + ": " + value + " is not one of " + allowed
          + (meant != null ? "; did you mean " + meant + "?" : "") + origin(cause.getProperty()), ACTION, cause);
    }
    if (cause.getName().toString().equals("hfr")) {
      return new FailureAnalysis("hfr: is empty or not a mapping" + origin(cause.getProperty())
          + "; HFR's settings go under it, indented: `hfr:`, then `  retry:`, then `    max-attempts-per-step: 3`", ACTION,
          cause);
    }
    return null;
  }

  /** One unknown property, with the key meant (or the keys allowed there) and where it was set. */
  static String unknownKey(ConfigurationProperty p) {
    ConfigurationPropertyName name = p.getName();
    Class<?> section = HfrProperties.class;
    StringBuilder parent = new StringBuilder("hfr");
    int last = name.getNumberOfElements() - 1;
    for (int i = 1; i < last && section != null; i++) {
      String element = name.getElement(i, ConfigurationPropertyName.Form.DASHED);
      Type type = componentType(section, element);
      parent.append('.').append(element);
      if (type instanceof ParameterizedType map && Map.class.isAssignableFrom((Class<?>) map.getRawType())) {
        i++; // the map's key: a tool's or a tenant's name
        if (i < last) {
          parent.append('[').append(name.getElement(i, ConfigurationPropertyName.Form.ORIGINAL)).append(']');
        }
        type = map.getActualTypeArguments()[1];
      }
      section = type instanceof Class<?> c && c.isRecord() ? c : null;
    }
    String key = name.getElement(last, ConfigurationPropertyName.Form.DASHED);
    String text = asWritten(p) + " is not an HFR property";
    if (section != null) {
      List<String> known = Arrays.stream(section.getRecordComponents()).map(c -> dashed(c.getName())).toList();
      String meant = closest(key, known);
      text += meant != null ? "; did you mean " + parent + "." + meant + "?" : "; allowed under " + parent + ": " + known;
    }
    return text + origin(p);
  }

  /** Edit distance as the runtime's files use it, or else the key that starts like this one (a truncated key). */
  private static String closest(String key, List<String> known) {
    String meant = Suggestions.closest(key, known);
    if (meant != null) {
      return meant;
    }
    String plain = key.replace("-", "");
    for (String k : known) {
      String candidate = k.replace("-", "");
      if (candidate.length() > plain.length()
          && Suggestions.closest(plain, List.of(candidate.substring(0, plain.length()))) != null) {
        return k;
      }
    }
    return null;
  }

  /** The property's name as the user wrote it (Boot's own name is normalised: max_atempts becomes maxatempts). */
  private static String asWritten(ConfigurationProperty p) {
    Object source = p.getSource() == null ? null : p.getSource().getUnderlyingSource();
    if (source instanceof EnumerablePropertySource<?> properties) {
      for (String written : properties.getPropertyNames()) {
        if (written.startsWith("hfr") && ConfigurationPropertyName.isValid(written.replace('_', '-'))
            && ConfigurationPropertyName.adapt(written, '.').equals(p.getName())) {
          return written;
        }
      }
    }
    return p.getName().toString();
  }

  private static Type componentType(Class<?> record, String dashedName) {
    for (RecordComponent c : record.getRecordComponents()) {
      if (dashed(c.getName()).equals(dashedName)) {
        return c.getGenericType();
      }
    }
    return null;
  }

  private static String dashed(String camel) {
    return camel.replaceAll("([a-z0-9])([A-Z])", "$1-$2").toLowerCase(java.util.Locale.ROOT);
  }

  private static String origin(ConfigurationProperty p) {
    return p == null || p.getOrigin() == null ? "" : " (set in " + p.getOrigin() + ")";
  }
}
