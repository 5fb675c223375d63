package dev.hfr.processor;

import static com.google.common.truth.Truth.assertWithMessage;
import static com.google.testing.compile.CompilationSubject.assertThat;

import com.google.testing.compile.Compilation;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaFileObject;
import javax.tools.StandardLocation;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The generated proxy, catalog, module and service file of a representative tool class, compared with
 * golden files under {@code src/test/resources/golden/} (one per case). To accept a deliberate change,
 * run with {@code -Dhfr.golden.update=true} and review the diff.
 */
class GoldenFilesTest {

  private static Compilation compilation;

  @BeforeAll
  static void compileTheShop() throws IOException {
    compilation = Sources.compileStrict(Sources.source("com.acme.shop.Shop", resource("golden/Shop.java")));
    assertThat(compilation).succeededWithoutWarnings();
  }

  @Test
  void proxy() throws IOException {
    assertGolden(compilation.generatedSourceFile("com.acme.shop.Shop_Recovering").orElseThrow(), "Shop_Recovering.java");
  }

  @Test
  void catalog() throws IOException {
    assertGolden(compilation.generatedSourceFile("com.acme.shop.Shop_HfrCatalog").orElseThrow(), "Shop_HfrCatalog.java");
  }

  @Test
  void daggerModule() throws IOException {
    assertGolden(compilation.generatedSourceFile("com.acme.shop.Shop_HfrModule").orElseThrow(), "Shop_HfrModule.java");
  }

  @Test
  void serviceFile() throws IOException {
    assertGolden(compilation.generatedFile(StandardLocation.CLASS_OUTPUT,
        "META-INF/services/dev.hfr.runtime.registry.ToolCatalog").orElseThrow(), "dev.hfr.runtime.registry.ToolCatalog");
  }

  private static void assertGolden(JavaFileObject generated, String golden) throws IOException {
    String actual = generated.getCharContent(true).toString();
    if (Boolean.getBoolean("hfr.golden.update")) {
      Files.writeString(Path.of("src/test/resources/golden", golden), actual);
    }
    assertWithMessage("generated %s differs from golden/%s", generated.getName(), golden)
        .that(actual).isEqualTo(resource("golden/" + golden));
  }

  private static String resource(String name) {
    try (InputStream in = GoldenFilesTest.class.getClassLoader().getResourceAsStream(name)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
