package dev.hfr.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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
  @DisplayName("the getting-started page shows no Java that is not included from a tested source")
  void gettingStartedJavaIsAllIncluded() {
    String page = DocPages.read(DocPages.root().resolve("docs/GETTING-STARTED.md"));
    Matcher blocks = Pattern.compile("(?m)^```java$").matcher(page);
    List<Integer> typedByHand = new ArrayList<>();
    int count = 0;
    while (blocks.find()) {
      count++;
      String before = page.substring(0, blocks.start());
      String previousLine = before.lines().reduce((a, b) -> b).orElse("");
      if (!previousLine.startsWith("<!-- include: ")) {
        typedByHand.add((int) before.chars().filter(c -> c == '\n').count() + 1);
      }
    }
    assertThat(count).as("Java blocks on the page").isPositive();
    assertThat(typedByHand).as("lines of Java blocks without an include above them").isEmpty();
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
  @DisplayName("a region of a YAML file is marked in # comments")
  void yamlRegion(@TempDir Path root) throws IOException {
    Files.writeString(root.resolve("application.yml"), """
        # tag::config[]
        hfr:
          temporal:
            # tag::inner[]
            tenant: shop
            # end::inner[]
        # end::config[]
        """);

    assertThat(DocSnippets.region(root.resolve("application.yml"), "config"))
        .isEqualTo("hfr:\n  temporal:\n    tenant: shop\n");
  }
}
