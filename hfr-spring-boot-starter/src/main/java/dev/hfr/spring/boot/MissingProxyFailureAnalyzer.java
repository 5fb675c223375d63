package dev.hfr.spring.boot;

import dev.hfr.runtime.Hfr;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Tells a user whose tool classes have no generated proxy which lines to add to the build, Maven and Gradle. */
class MissingProxyFailureAnalyzer extends AbstractFailureAnalyzer<MissingProxyException> {

  @Override
  protected FailureAnalysis analyze(Throwable rootFailure, MissingProxyException cause) {
    String version = version();
    String action = "Run hfr-processor when compiling, then rebuild (docs/SPRING.md, \"Set-up\").\n\n"
        + "Maven: add it to the compiler plugin's annotation processor paths (beside any others you have, such as"
        + " Lombok's):\n"
        + "    <plugin>\n"
        + "      <groupId>org.apache.maven.plugins</groupId>\n"
        + "      <artifactId>maven-compiler-plugin</artifactId>\n"
        + "      <configuration>\n"
        + "        <annotationProcessorPaths>\n"
        + "          <path>\n"
        + "            <groupId>dev.hfr</groupId>\n"
        + "            <artifactId>hfr-processor</artifactId>\n"
        + "            <version>" + version + "</version>\n"
        + "          </path>\n"
        + "        </annotationProcessorPaths>\n"
        + "      </configuration>\n"
        + "    </plugin>\n\n"
        + "Gradle:\n"
        + "    dependencies {\n"
        + "        annotationProcessor(\"dev.hfr:hfr-processor:" + version + "\")\n"
        + "    }";
    return new FailureAnalysis(cause.getMessage(), action, cause);
  }

  /** HFR's version, as the jar says; the property name a BOM user writes when the jar does not say. */
  private static String version() {
    String v = Hfr.class.getPackage().getImplementationVersion();
    return v != null ? v : "${hfr.version}";
  }
}
