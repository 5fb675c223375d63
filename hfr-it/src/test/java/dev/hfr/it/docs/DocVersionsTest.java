package dev.hfr.it.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("Every HFR version the docs tell users to type is the build's version")
class DocVersionsTest {

  private static final String BUILD_VERSION = System.getProperty("hfr.version");

  @Test
  @DisplayName("README.md and docs/ name no other version of an HFR artifact than the build's")
  void docsNameTheBuildsVersion() {
    List<String> wrong = new ArrayList<>();
    int mentions = 0;
    for (Path page : DocPages.all()) {
      for (DocVersions.Mention m : DocVersions.find(DocPages.read(page))) {
        mentions++;
        if (!m.version().equals(BUILD_VERSION)) {
          wrong.add(DocPages.name(page) + ":" + m.line() + ": `" + m.text() + "` says " + m.version()
              + "; the build is " + BUILD_VERSION + " (pom.xml <version>): write " + BUILD_VERSION);
        }
      }
    }
    assertThat(BUILD_VERSION).as("the build's version (system property hfr.version)").isNotBlank();
    assertThat(mentions).as("versions found in the README's build snippets").isGreaterThanOrEqualTo(5);
    assertThat(wrong).as("versions users would type that the build does not produce").isEmpty();
  }

  @Test
  @DisplayName("a Maven, Gradle, jar-name or repository-path version is found, and a ${property} is not")
  void everyFormIsFound() {
    String page = """
        <dependency><groupId>dev.hfr</groupId><artifactId>hfr-bom</artifactId><version>0.1.0</version></dependency>
        <path>
          <groupId>dev.hfr</groupId>
          <artifactId>hfr-processor</artifactId>
          <version>0.2.0</version>
        </path>
        implementation(platform("dev.hfr:hfr-bom:0.3.0"))
        mvn dependency:copy -Dartifact=dev.hfr:hfr-agent-bytebuddy:0.4.0:jar:agent
        java -javaagent:hfr-agent-bytebuddy-0.5.0-agent.jar -jar app.jar
        ~/.m2/repository/dev/hfr/hfr-runtime/0.6.0-SNAPSHOT/
        <version>${hfr.version}</version> <groupId>dev.hfr</groupId><artifactId>x</artifactId><version>${hfr.version}</version>
        """;

    assertThat(DocVersions.find(page)).extracting(DocVersions.Mention::version)
        .containsExactlyInAnyOrder("0.1.0", "0.2.0", "0.3.0", "0.4.0", "0.5.0", "0.6.0-SNAPSHOT");
    assertThat(DocVersions.find(page)).filteredOn(m -> m.version().equals("0.2.0"))
        .extracting(DocVersions.Mention::line).containsExactly(5);
  }
}
