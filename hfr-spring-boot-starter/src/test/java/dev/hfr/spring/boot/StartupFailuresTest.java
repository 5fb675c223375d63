package dev.hfr.spring.boot;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.spring.boot.shop.ShopApplication;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.support.SpringFactoriesLoader;

/**
 * What Spring Boot prints when HFR stops start-up: the analyzers the starter registers, run on the real failure
 * as Boot runs them (first one that answers wins, in their order).
 */
@DisplayName("Start-up failures name the property, the value meant and the page, as the engine's errors do")
class StartupFailuresTest {

  private final ApplicationContextRunner app = new ApplicationContextRunner()
      .withConfiguration(AutoConfigurations.of(HfrAutoConfiguration.class))
      .withUserConfiguration(ShopApplication.class)
      .withBean(DecisionSink.class, DecisionSink::discarding);

  /** The analysis Boot would print for {@code failure}, from the analyzers in spring.factories. */
  private static FailureAnalysis analysis(Throwable failure) {
    // Boot's analyzers that need a bean factory are left out: the ones that matter here take none.
    List<FailureAnalyzer> analyzers = new java.util.ArrayList<>(SpringFactoriesLoader.forDefaultResourceLocation().load(
        FailureAnalyzer.class, SpringFactoriesLoader.ArgumentResolver.none(),
        SpringFactoriesLoader.FailureHandler.handleMessage((message, cause) -> { })));
    org.springframework.core.annotation.AnnotationAwareOrderComparator.sort(analyzers);
    for (FailureAnalyzer a : analyzers) {
      FailureAnalysis result = a.analyze(failure);
      if (result != null) {
        return result;
      }
    }
    throw new AssertionError("no analyzer answered for " + failure);
  }

  @Test
  @DisplayName("an unknown key gets the key meant: hfr.retry.max-atempts → hfr.retry.max-attempts-per-step, and CONFIG.md")
  void unknownKeyDidYouMean() {
    app.withPropertyValues("hfr.idempotency.ledger=memory", "hfr.retry.max_atempts=3").run(context -> {
      FailureAnalysis a = analysis(context.getStartupFailure());
      assertThat(a.getDescription()).contains("hfr.retry.max_atempts is not an HFR property").contains("did you mean hfr.retry.max-attempts-per-step?");
      assertThat(a.getAction()).contains("docs/CONFIG.md");
    });
  }

  @Test
  @DisplayName("an unknown enum value gets the value meant: hfr.mode ENFORSE → ENFORCE")
  void enumDidYouMean() {
    app.withPropertyValues("hfr.idempotency.ledger=memory", "hfr.mode=ENFORSE").run(context -> {
      FailureAnalysis a = analysis(context.getStartupFailure());
      assertThat(a.getDescription()).contains("hfr.mode").contains("ENFORSE").contains("did you mean ENFORCE?")
          .doesNotContain("No enum constant");
    });
  }

  @Test
  @DisplayName("hfr: with nothing under it stops start-up instead of running on defaults")
  void emptyHfrSection() {
    app.withPropertyValues("hfr=").run(context ->
        assertThat(analysis(context.getStartupFailure()).getDescription()).contains("hfr").contains("empty or not a mapping"));
    app.withPropertyValues("hfr=on").run(context ->
        assertThat(analysis(context.getStartupFailure()).getDescription()).contains("empty or not a mapping"));
  }

  @Test
  @DisplayName("a second instance on the same ledger directory is told to set hfr.idempotency.path")
  void ledgerLocked(@TempDir Path dir) {
    ApplicationContextRunner onDir = app.withPropertyValues("hfr.idempotency.path=" + dir.resolve("ledger"));
    onDir.run(first -> {
      assertThat(first).hasNotFailed();
      onDir.run(second -> {
        FailureAnalysis a = analysis(second.getStartupFailure());
        assertThat(a.getDescription()).contains("in use by another process");
        assertThat(a.getAction()).contains("hfr.idempotency.path").contains("hfr.idempotency.ledger=postgres");
      });
    });
  }

  @Test
  @DisplayName("a bean with HFR annotations and no generated proxy stops start-up with the Maven and Gradle lines")
  void annotatedBeanWithoutProxy(@TempDir Path dir) throws Exception {
    Path source = dir.resolve("src/demo/Search.java");
    Files.createDirectories(source.getParent());
    Files.writeString(source, """
        package demo;

        import dev.hfr.annotations.Risk;
        import dev.hfr.annotations.SideEffect;

        public class Search {
          @SideEffect(Risk.R0)
          public String find(String query) {
            return query;
          }
        }
        """);
    Path classes = Files.createDirectories(dir.resolve("classes"));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    // -proc:none: compiled as a build without hfr-processor compiles it
    int status = javac.run(null, null, null, "-proc:none", "-classpath", System.getProperty("java.class.path"),
        "-d", classes.toString(), source.toString());
    assertThat(status).isZero();
    try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, getClass().getClassLoader())) {
      Class<?> search = loader.loadClass("demo.Search");
      app.withClassLoader(loader).withPropertyValues("hfr.idempotency.ledger=memory")
          .withBean("search", (Class<Object>) search).run(context -> {
            FailureAnalysis a = analysis(context.getStartupFailure());
            assertThat(a.getDescription()).contains("demo.Search").contains("no generated proxy");
            assertThat(a.getAction()).contains("<annotationProcessorPaths>").contains("<artifactId>hfr-processor</artifactId>")
                .contains("annotationProcessor(\"dev.hfr:hfr-processor:");
          });
    }
  }
}
