package dev.hfr.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Code on the docs' pages is included from tagged regions of sources that tests compile and run
 * ({@link DocSnippets}), so it cannot rot. After changing a tagged region, copy it into the pages with
 * {@code mvn -B -pl hfr-it -am test -Dtest=DocSnippetsTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Dhfr.docs.write=true}.
 */
@DisplayName("Code on the docs' pages is the code the tests compile and run")
class DocSnippetsTest {

  private static final String FIX = "copy the region into the page with `mvn -B -pl hfr-it -am test -Dtest=DocSnippetsTest"
      + " -Dsurefire.failIfNoSpecifiedTests=false -Dhfr.docs.write=true`";

  @Test
  @DisplayName("every included block is its tagged source region as the source says it today")
  void includedBlocksMatchTheirRegions() throws IOException {
    List<String> problems = new ArrayList<>();
    int includes = 0;
    for (Path page : DocPages.all()) {
      String text = DocPages.read(page);
      if (Boolean.getBoolean("hfr.docs.write")) {
        String rewritten = DocSnippets.rewrite(text, DocPages.root());
        if (!rewritten.equals(text)) {
          Files.writeString(page, rewritten);
          text = rewritten;
        }
      }
      for (DocSnippets.Include include : DocSnippets.includes(text, DocPages.root())) {
        includes++;
        String where = DocPages.name(page) + ":" + include.line() + ": " + include.source() + "#" + include.tag();
        if (include.expected() == null) {
          problems.add(where + " does not exist: mark the region in the source with `// tag::" + include.tag()
              + "[]` and `// end::" + include.tag() + "[]`, or fix the include's path");
        } else if (!include.matches()) {
          problems.add(where + " differs from the page's block; the source says:\n" + include.expected() + FIX);
        }
      }
    }
    assertThat(includes).as("includes on the pages").isGreaterThanOrEqualTo(5);
    assertThat(problems).isEmpty();
  }

  @Test
  @DisplayName("the getting-started pages show no Java or YAML that is not included from a tested source")
  void gettingStartedCodeIsAllIncluded() throws IOException {
    List<Path> pages;
    try (Stream<Path> files = Files.list(DocPages.root().resolve("docs/getting-started"))) {
      pages = files.filter(p -> p.toString().endsWith(".md")).sorted().toList();
    }
    List<String> typedByHand = new ArrayList<>();
    int count = 0;
    for (Path page : pages) {
      String text = DocPages.read(page);
      Matcher blocks = Pattern.compile("(?m)^```(java|yaml)$").matcher(text);
      while (blocks.find()) {
        count++;
        String before = text.substring(0, blocks.start());
        String previousLine = before.lines().reduce((a, b) -> b).orElse("");
        if (!previousLine.startsWith("<!-- include: ")) {
          typedByHand.add(DocPages.name(page) + ":" + (before.chars().filter(c -> c == '\n').count() + 1));
        }
      }
    }
    assertThat(pages).as("getting-started pages").hasSizeGreaterThanOrEqualTo(6);
    assertThat(count).as("Java and YAML blocks on the getting-started pages").isPositive();
    assertThat(typedByHand).as("Java or YAML blocks without an include above them (typed by hand)").isEmpty();
  }

  @Test
  @DisplayName("the README and the pages a newcomer reads first show no Java that is not included from a tested source")
  void newcomerPagesShowOnlyIncludedJava() {
    List<String> typedByHand = new ArrayList<>();
    int count = 0;
    for (String name : List.of("README.md", "docs/CONFIG.md", "docs/CLASSIFIER.md", "docs/PROCESSOR.md",
        "docs/TROUBLESHOOTING.md", "docs/API.md")) {
      String text = DocPages.read(DocPages.root().resolve(name));
      Matcher blocks = Pattern.compile("(?m)^```java$").matcher(text);
      while (blocks.find()) {
        count++;
        String before = text.substring(0, blocks.start());
        String previousLine = before.lines().reduce((a, b) -> b).orElse("");
        if (!previousLine.startsWith("<!-- include: ")) {
          typedByHand.add(name + ":" + (before.chars().filter(c -> c == '\n').count() + 1));
        }
      }
    }
    assertThat(count).as("Java blocks on those pages").isGreaterThanOrEqualTo(3);
    assertThat(typedByHand).as("Java blocks without an include above them (typed by hand)").isEmpty();
  }

  @Test
  @DisplayName("a block that drifted from its region is reported and rewritten; a missing region is reported")
  void driftIsFound(@TempDir Path root) throws IOException {
    Files.writeString(root.resolve("Tool.java"), """
        class Tool {
          // tag::call[]
          int call() {
            // tag::inner[]
            return 2;
            // end::inner[]
          }
          // end::call[]
        }
        """);
    String page = """
        Intro.
        <!-- include: Tool.java#call -->
        ```java
        int call() {
          return 1;
        }
        ```
        <!-- include: Tool.java#gone -->
        ```java
        ```
        """;

    List<DocSnippets.Include> includes = DocSnippets.includes(page, root);

    assertThat(includes).extracting(DocSnippets.Include::line).containsExactly(2, 8);
    assertThat(includes.get(0).matches()).isFalse();
    assertThat(includes.get(0).expected()).isEqualTo("int call() {\n  return 2;\n}\n");
    assertThat(includes.get(1).expected()).isNull();
    String rewritten = DocSnippets.rewrite(page, root);
    assertThat(rewritten).contains("```java\nint call() {\n  return 2;\n}\n```");
    assertThat(DocSnippets.includes(rewritten, root).get(0).matches()).isTrue();
  }

  @Test
  @DisplayName("a region of a POM or a YAML file is marked in that file's own comments")
  void pomAndYamlRegions(@TempDir Path root) throws IOException {
    Files.writeString(root.resolve("pom.xml"), """
        <dependencies>
          <!-- tag::deps[] -->
          <dependency><artifactId>a</artifactId></dependency>
          <!-- end::deps[] -->
        </dependencies>
        """);
    Files.writeString(root.resolve("application.yml"), """
        # tag::hfr[]
        hfr:
          mode: ENFORCE
        # end::hfr[]
        """);

    assertThat(DocSnippets.region(root.resolve("pom.xml"), "deps"))
        .isEqualTo("<dependency><artifactId>a</artifactId></dependency>\n");
    assertThat(DocSnippets.region(root.resolve("application.yml"), "hfr")).isEqualTo("hfr:\n  mode: ENFORCE\n");
  }
}
