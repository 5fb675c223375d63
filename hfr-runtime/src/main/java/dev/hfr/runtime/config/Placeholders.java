package dev.hfr.runtime.config;

import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code ${NAME}} and {@code ${NAME:default}} in the values of {@code hfr.yaml}: the environment variable
 * {@code NAME}, else the system property {@code NAME}, else the default; {@code $${} writes a literal
 * {@code ${}. A placeholder without a value or a default is a problem at its file and line. A value that is
 * one placeholder takes the type of what it becomes ({@code expected_workers: ${WORKERS:4}} is a number).
 */
final class Placeholders {

  /** {@code $${...}} (escaped) or {@code ${NAME}} / {@code ${NAME:default}}. */
  private static final Pattern PLACEHOLDER = Pattern.compile("\\$\\$\\{|\\$\\{([A-Za-z_][A-Za-z0-9_.\\-]*)(?::([^}]*))?}");

  /** The environment, then system properties. */
  static final UnaryOperator<String> ENVIRONMENT = name -> {
    String v = System.getenv(name);
    return v != null ? v : System.getProperty(name);
  };

  private Placeholders() {}

  /** Whether {@code text} has anything to substitute. */
  static boolean present(String text) {
    return text.indexOf("${") >= 0;
  }

  /**
   * {@code text} with its placeholders replaced; {@code missing} receives the name of each placeholder that has
   * no value and no default (it is left as written).
   */
  static String substitute(String text, UnaryOperator<String> lookup, List<String> missing) {
    Matcher m = PLACEHOLDER.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String replacement;
      if (m.group().equals("$${")) {
        replacement = "${";
      } else {
        String value = lookup.apply(m.group(1));
        if (value == null) {
          value = m.group(2);
        }
        if (value == null) {
          missing.add(m.group(1));
          value = m.group();
        }
        replacement = value;
      }
      m.appendReplacement(out, Matcher.quoteReplacement(replacement));
    }
    m.appendTail(out);
    return out.toString();
  }

  /** Whether {@code text} is exactly one placeholder (so its value's type decides the value's type). */
  static boolean whole(String text) {
    Matcher m = PLACEHOLDER.matcher(text.trim());
    return m.matches() && m.group(1) != null;
  }
}
