package dev.hfr.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.jar.JarFile;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("What a user imports: the BOM and the jars it points to")
class BomTest {

  private static final String VERSION = System.getProperty("hfr.version");

  @Test
  @DisplayName("the BOM lists every published module, at the build's version")
  void theBomListsEveryPublishedModule() throws Exception {
    String bom = Files.readString(PublishedModules.root().resolve("hfr-bom/pom.xml"));
    List<String> managed = PublishedModules.matches(bom, "<groupId>dev.hfr</groupId><artifactId>([^<]+)</artifactId>");

    assertThat(managed).containsAll(PublishedModules.published());
    assertThat(PublishedModules.property(bom, "version")).isEqualTo(VERSION);
  }

  @Test
  @DisplayName("the BOM pins the third-party versions the build itself was tested with")
  void theBomPinsTheTestedVersions() throws Exception {
    String root = Files.readString(PublishedModules.root().resolve("pom.xml"));
    String bom = Files.readString(PublishedModules.root().resolve("hfr-bom/pom.xml"));
    for (String property : List.of("byte-buddy.version", "jackson.version", "postgresql.version", "hikaricp.version",
        "micrometer.version", "temporal.version")) {
      assertThat(PublishedModules.property(bom, property)).as(property)
          .isEqualTo(PublishedModules.property(root, property));
    }
  }

  @Test
  @DisplayName("every published jar names its module, carries its version, has a sources jar and a POM with a licence")
  void everyJarNamesItsModule() throws Exception {
    for (String module : PublishedModules.published()) {
      Path dir = PublishedModules.root().resolve(module);
      Path jar = dir.resolve("target/" + module + "-" + VERSION + ".jar");
      assertThat(jar).as("built by `mvn verify` before this module").exists();
      assertThat(dir.resolve("target/" + module + "-" + VERSION + "-sources.jar")).as(module + " sources").exists();
      try (JarFile file = new JarFile(jar.toFile())) {
        var attributes = file.getManifest().getMainAttributes();
        assertThat(attributes.getValue("Automatic-Module-Name")).as(module).matches("dev\\.hfr(\\.[a-z0-9]+)+");
        assertThat(attributes.getValue("Implementation-Version")).as(module).isEqualTo(VERSION);
      }
    }
    String root = Files.readString(PublishedModules.root().resolve("pom.xml"));
    assertThat(root).contains("<licenses>", "<scm>", "<url>", "<developers>");
    assertThat(PublishedModules.root().resolve("LICENSE")).content().contains("Apache License");
  }

  @Test
  @DisplayName("the agent jar in the repository is the shaded -javaagent jar")
  void theAgentClassifierIsTheShadedJar() throws Exception {
    Path agent = Path.of(System.getProperty("hfr.agent.jar"));
    try (JarFile file = new JarFile(agent.toFile())) {
      assertThat(file.getManifest().getMainAttributes().getValue("Premain-Class")).isEqualTo("dev.hfr.agent.HfrAgent");
    }
    String pom = Files.readString(PublishedModules.root().resolve("hfr-agent-bytebuddy/pom.xml"));
    assertThat(pom).contains("<classifier>agent</classifier>");
  }
}
