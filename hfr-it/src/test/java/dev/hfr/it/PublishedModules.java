package dev.hfr.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The reactor's modules as the root pom lists them, and which of them users consume. */
final class PublishedModules {

  /**
   * Modules that are examples, measurements or these checks, and parent POMs (deployed, but never a user's
   * dependency): none belongs in the BOM.
   */
  private static final Pattern NOT_PUBLISHED = Pattern.compile("samples.*|hfr-bench|benchmarks|hfr-it|hfr-bom|.*-parent");

  private PublishedModules() {}

  static Path root() {
    return Path.of(System.getProperty("hfr.root", "..")).toAbsolutePath().normalize();
  }

  static List<String> all() throws IOException {
    return matches(Files.readString(root().resolve("pom.xml")), "<module>([^<]+)</module>");
  }

  static List<String> published() throws IOException {
    return all().stream().filter(m -> !NOT_PUBLISHED.matcher(m).matches()).toList();
  }

  static List<String> matches(String text, String regex) {
    Matcher m = Pattern.compile(regex).matcher(text);
    List<String> out = new java.util.ArrayList<>();
    while (m.find()) {
      out.add(m.group(1).trim());
    }
    return out;
  }

  static String property(String pom, String name) {
    List<String> found = matches(pom, "<" + Pattern.quote(name) + ">([^<]+)</" + Pattern.quote(name) + ">");
    if (found.isEmpty()) {
      throw new AssertionError("no <" + name + "> property");
    }
    return found.get(0);
  }
}
