package dev.hfr.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.it.OutsideMaven;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A newcomer's first hour, from the page: a new project made of exactly the blocks docs/getting-started/plain-java.md
 * shows (its whole {@code pom.xml}, its Java files), built and run by the Maven that runs this build (the oldest
 * the README supports, 3.8, on this machine) with the page's own command, must print what the page says you see.
 * The same project on the module path, with the module-info.java of docs/getting-started/modules.md, prints the
 * same; and the mistakes those pages warn of fail the way TROUBLESHOOTING.md says they do.
 */
@DisplayName("A new project made from the plain-Java page builds with Maven and prints what the page shows")
class PlainJavaPageTest {

  private static final String PAGE = "docs/getting-started/plain-java.md";
  private static final String MODULES_PAGE = "docs/getting-started/modules.md";
  /** Where the page's Java files are included from; their path below it is their path in the new project. */
  private static final String SOURCES = "hfr-it/src/test/resources/first-call/";

  private static OutsideMaven maven;
  private static String page;

  @TempDir Path project;

  @BeforeAll
  static void prepare() throws IOException {
    maven = OutsideMaven.fromThisBuild();
    page = DocPages.read(DocPages.root().resolve(PAGE));
  }

  @Test
  @DisplayName("the README shows the page's pom.xml, run command and output, letter for letter")
  void theReadmeShowsTheSamePomAndOutput() {
    assertThat(DocPages.read(DocPages.root().resolve("README.md")))
        .contains(block(page, "<!-- pom.xml -->"), block(page, "<!-- what you see -->"), "mvn -q compile exec:java");
  }

  @Test
  @DisplayName("built from the page's blocks with the page's command, it prints the page's \"what you see\"")
  void theProjectOnThePageRunsAsThePageSays() throws Exception {
    writeProjectFromThePage();

    OutsideMaven.Result run = maven.run(project, runCommand());

    assertThat(run.exit()).as(run.output()).isZero();
    assertThat(project.resolve("target/classes/com/acme/WeatherTools_Recovering.class")).exists();
    assertPrinted(run.output(), block(page, "<!-- what you see -->"));
  }

  @Nested
  @DisplayName("on the module path")
  class OnTheModulePath {

    @Test
    @DisplayName("with the modules page's module-info.java the same app prints the same")
    void theModulePathAppPrintsTheSame() throws Exception {
      writeProjectFromThePage();
      writeModuleInfo(DocPages.read(DocPages.root().resolve(MODULES_PAGE)));
      String modulePath = compileWithMaven();

      Result run = java(List.of("--module-path", modulePath, "-m", "com.acme.weather/com.acme.Main"));

      assertThat(run.exit()).as(run.output()).isZero();
      assertPrinted(run.output(), block(page, "<!-- what you see -->"));
    }

    @Test
    @DisplayName("without the provides line the processor fails the build and names the line to add")
    void withoutProvidesTheProcessorSaysWhatToAdd() throws Exception {
      writeProjectFromThePage();
      writeModuleInfo(DocPages.read(DocPages.root().resolve(MODULES_PAGE)).replaceAll("(?m)^\\s*provides .*\\n", ""));

      OutsideMaven.Result compiled = maven.run(project, List.of("-q", "compile"));

      assertThat(compiled.exit()).isNotZero();
      assertThat(compiled.output()).contains("[hfr/module-provides] module com.acme.weather",
          "provides dev.hfr.runtime.registry.ToolCatalog with com.acme.WeatherTools_HfrCatalog;");
    }

    @Test
    @DisplayName("without requires java.sql (nor SQLite's driver, which requires it), Hfr.build() names the line to add")
    void withoutJavaSqlBuildSaysWhatToAdd() throws Exception {
      writeProjectFromThePage();
      writeModuleInfo(DocPages.read(DocPages.root().resolve(MODULES_PAGE))
          .replaceAll("(?m)^\\s*requires (java\\.sql|org\\.xerial\\.sqlitejdbc);.*\\n", ""));
      String modulePath = compileWithMaven();

      Result run = java(List.of("--module-path", modulePath, "-m", "com.acme.weather/com.acme.Main"));

      assertThat(run.exit()).isNotZero();
      assertThat(run.output()).contains("add to your module-info.java: requires java.sql;")
          .doesNotContain("NoClassDefFoundError");
    }
  }

  @Nested
  @DisplayName("the old compiler plugin's symptoms are the ones TROUBLESHOOTING.md maps to their fix")
  class OldCompilerPlugin {

    @Test
    @DisplayName("without the plugin's version, Maven 3.8's default plugin (3.1) asks for source 5")
    void withoutAVersionTheDefaultPluginFailsOnSource5() throws Exception {
      writeProjectFromThePage();
      rewritePom(pom -> pom.replaceFirst("(<artifactId>maven-compiler-plugin</artifactId>\\s*)<version>[^<]+</version>", "$1"));

      OutsideMaven.Result compiled = maven.run(project, List.of("-q", "compile"));

      assertThat(compiled.exit()).isNotZero();
      assertThat(compiled.output()).contains("Source option 5 is no longer supported");
      assertThat(troubleshooting()).contains("Source option 5 is no longer supported");
    }

    @Test
    @DisplayName("with source and target set, the old plugin ignores the processor path: cannot find symbol ..._Recovering")
    void withSourceAndTargetTheOldPluginGeneratesNothing() throws Exception {
      writeProjectFromThePage();
      rewritePom(pom -> pom.replaceFirst("(<artifactId>maven-compiler-plugin</artifactId>\\s*)<version>[^<]+</version>", "$1")
          .replace("<maven.compiler.release>17</maven.compiler.release>",
              "<maven.compiler.source>17</maven.compiler.source><maven.compiler.target>17</maven.compiler.target>"));

      OutsideMaven.Result compiled = maven.run(project, List.of("-q", "compile"));

      assertThat(compiled.exit()).isNotZero();
      assertThat(compiled.output()).contains("cannot find symbol").contains("WeatherTools_Recovering");
      assertThat(troubleshooting()).contains("cannot find symbol", "_Recovering", "maven-compiler-plugin");
    }
  }

  // ---- the project, from the page ---------------------------------------------------------------------------

  private void writeProjectFromThePage() throws IOException {
    Files.writeString(project.resolve("pom.xml"), block(page, "<!-- pom.xml -->"));
    int files = 0;
    for (DocSnippets.Include include : DocSnippets.includes(page, DocPages.root())) {
      if (include.source().startsWith(SOURCES) && include.source().endsWith(".java")) {
        Path file = project.resolve(include.source().substring(SOURCES.length()));
        Files.createDirectories(file.getParent());
        Files.writeString(file, include.shown());
        files++;
      }
    }
    assertThat(files).as("Java files the page shows").isEqualTo(2);
  }

  private void writeModuleInfo(String modulesPage) throws IOException {
    DocSnippets.Include include = DocSnippets.includes(modulesPage, DocPages.root()).stream()
        .filter(i -> i.source().endsWith("module-info.java")).findFirst().orElseThrow();
    Files.writeString(project.resolve("src/main/java/module-info.java"), include.shown());
  }

  private void rewritePom(java.util.function.UnaryOperator<String> change) throws IOException {
    Path pom = project.resolve("pom.xml");
    String before = Files.readString(pom);
    String after = change.apply(before);
    assertThat(after).as("the page's pom.xml was changed as the test meant").isNotEqualTo(before);
    Files.writeString(pom, after);
  }

  /** The command of the page's "run it" block, without its {@code mvn}. */
  private static List<String> runCommand() {
    Matcher m = Pattern.compile("(?m)^mvn (.*exec:java.*)$").matcher(page);
    assertThat(m.find()).as("a mvn ... exec:java line on " + PAGE).isTrue();
    return Arrays.asList(m.group(1).trim().split("\\s+"));
  }

  /** Compiles the project and returns its module path: its classes and its dependencies. */
  private String compileWithMaven() throws Exception {
    Path dependencies = project.resolve("target/dependencies.txt");
    OutsideMaven.Result compiled = maven.run(project, List.of("-q", "compile",
        "org.apache.maven.plugins:maven-dependency-plugin:3.8.1:build-classpath",
        "-Dmdep.outputFile=" + dependencies));
    assertThat(compiled.exit()).as(compiled.output()).isZero();
    return project.resolve("target/classes") + ":" + Files.readString(dependencies).trim();
  }

  private static String troubleshooting() {
    return DocPages.read(DocPages.root().resolve("docs/TROUBLESHOOTING.md"));
  }

  /** The fenced block right after {@code marker} on {@code text}. */
  static String block(String text, String marker) {
    int at = text.indexOf(marker + "\n```");
    assertThat(at).as(marker + " followed by a fenced block").isNotNegative();
    int start = text.indexOf('\n', text.indexOf("```", at)) + 1;
    return text.substring(start, text.indexOf("\n```", start - 1) + 1);
  }

  /**
   * Each line of the page's block is printed, in order. What differs from run to run — the time, the task's
   * generated id, the drawn delay, the measured latency — is compared by its key alone; other lines (the
   * ledger's, java.util.logging's date lines) may come between.
   */
  static void assertPrinted(String output, String shown) {
    List<String> printed = output.lines().map(PlainJavaPageTest::steady).toList();
    int from = 0;
    for (String line : shown.lines().map(PlainJavaPageTest::steady).toList()) {
      int found = printed.subList(from, printed.size()).indexOf(line);
      assertThat(found).as("the page's line\n  " + line + "\nafter line " + from + " of what was printed:\n" + output)
          .isNotNegative();
      from += found + 1;
    }
  }

  private static String steady(String line) {
    return line.strip().replaceAll("\"(epochMillis|taskId|delayMillis|latencyMillis)\":(\"[^\"]*\"|\\d+)", "\"$1\":_");
  }

  private Result java(List<String> arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    command.addAll(arguments);
    Process process = new ProcessBuilder(command).directory(project.toFile()).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(1, TimeUnit.MINUTES)).isTrue();
    return new Result(process.exitValue(), output);
  }

  private record Result(int exit, String output) {}
}
