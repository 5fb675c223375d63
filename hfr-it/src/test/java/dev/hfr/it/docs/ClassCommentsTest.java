package dev.hfr.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Every public type in the main sources of every module says what it is for, in a javadoc comment above it
 * (above its annotations), so a reader of the code or of the javadoc never meets a type without a purpose.
 */
@DisplayName("Every public type has a class comment")
class ClassCommentsTest {

  private static final Pattern PUBLIC_TYPE = Pattern.compile(
      "^\\s*public\\s+(?:(?:static|final|abstract|sealed|non-sealed|strictfp)\\s+)*(?:class|interface|enum|record|@interface)\\s+(\\w+)");

  @Test
  @DisplayName("each public class, interface, enum, record and annotation of src/main/java has a javadoc comment")
  void everyPublicTypeIsCommented() throws IOException {
    List<String> missing = new ArrayList<>();
    int types = 0;
    try (Stream<Path> files = Files.walk(DocPages.root())) {
      for (Path file : files.filter(ClassCommentsTest::isMainSource).sorted().toList()) {
        List<String> lines = Files.readAllLines(file);
        for (int i = 0; i < lines.size(); i++) {
          var type = PUBLIC_TYPE.matcher(lines.get(i));
          if (type.find()) {
            types++;
            if (!hasJavadocAbove(lines, i)) {
              missing.add(DocPages.name(file) + ":" + (i + 1) + ": " + type.group(1)
                  + " — add a /** ... */ comment saying what it is for");
            }
          }
        }
      }
    }
    assertThat(types).as("public types found").isGreaterThan(100);
    assertThat(missing).as("public types without a class comment").isEmpty();
  }

  @Test
  @DisplayName("a comment above the annotations counts; a line comment or a plain block comment does not")
  void whatCountsAsAComment() {
    assertThat(hasJavadocAbove(List.of("/** Orders. */", "@Deprecated", "// tag::x[]", "public class A {"), 3)).isTrue();
    assertThat(hasJavadocAbove(List.of("/* Orders. */", "public class A {"), 1)).isFalse();
    assertThat(hasJavadocAbove(List.of("import a.B;", "", "public class A {"), 2)).isFalse();
    assertThat(hasJavadocAbove(List.of("/**", " * Orders.", " */", "public record A() {"), 3)).isTrue();
  }

  private static boolean isMainSource(Path file) {
    String path = file.toString().replace('\\', '/');
    return path.endsWith(".java") && path.contains("/src/main/java/") && !path.contains("/target/");
  }

  /** Whether a javadoc comment ends above line {@code at}, past blank lines, annotations and line comments. */
  static boolean hasJavadocAbove(List<String> lines, int at) {
    int i = at - 1;
    while (i >= 0) {
      String line = lines.get(i).strip();
      if (line.endsWith("*/")) {
        for (int j = i; j >= 0; j--) {
          if (lines.get(j).contains("/*")) {
            return lines.get(j).contains("/**");
          }
        }
        return false;
      }
      boolean skippable = line.isEmpty() || line.startsWith("@") || line.startsWith("//")
          || !(line.endsWith(";") || line.endsWith("{") || line.endsWith("}"));
      if (!skippable) {
        return false;
      }
      i--;
    }
    return false;
  }
}
