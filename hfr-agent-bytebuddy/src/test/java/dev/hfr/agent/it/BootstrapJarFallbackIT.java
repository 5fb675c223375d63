package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.hfr.agent.bench.StartupProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The path a JDK takes when it refuses to define the bridge directly in the bootstrap class loader: the bridge comes
 * from a jar in the temporary folder appended to the bootstrap search path; the weaver (Byte Buddy) comes from its
 * nested jar as always. Taken here on any JDK with the diagnostic {@code -Dhfr.agent.bootstrap=jar} (docs/AGENT.md,
 * "Temporary files").
 */
@DisplayName("-Dhfr.agent.bootstrap=jar: the bridge from a jar")
class BootstrapJarFallbackIT {

  private static final String SHADED_BYTE_BUDDY = "dev.hfr.agent.shaded.net.bytebuddy.";

  static FaultServer server;

  @BeforeAll
  static void startServer() throws IOException {
    server = new FaultServer();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  @DisplayName("a failing request is recorded and classified, the bridge comes from the jar, which is gone after exit")
  void failingRequestClassifiedThroughTheFallback(@TempDir Path tmp) throws Exception {
    Path events = tmp.resolve("events.jsonl");
    Path jvmTmp = Files.createDirectory(tmp.resolve("jvm-tmp"));
    Path classLog = tmp.resolve("classes.log");
    List<String> seen;
    String stderr;
    try (ForkedJvm app = ForkedJvm.start(List.of("-Djava.io.tmpdir=" + jvmTmp, "-Dhfr.agent.bootstrap=jar", "-Dhfr.agent.debug=true",
        ForkedJvm.classLoadLog(classLog), ForkedJvm.javaagent("events=" + events + ",summary.interval=0s")),
        "requests", server.baseUrl(), "GET:/unavailable")) {
      seen = app.linesUntil(null, Duration.ofSeconds(120));
      assertThat(app.waitFor(Duration.ofSeconds(30))).isZero();
      stderr = app.stderr();
    }

    assertThat(seen).as("what the application saw").containsExactly("status=503 body=unavailable");
    List<JsonNode> recorded = Events.read(events);
    assertThat(recorded).as("stderr:%n%s", stderr).singleElement()
        .satisfies(e -> assertThat(e.get("client").asText()).isEqualTo("jdk-httpclient"))
        .satisfies(e -> assertThat(Events.outcome(e)).isEqualTo("503 T1 RETRY"));
    assertThat(stderr).contains("[hfr-agent] started on start-up", "-Dhfr.agent.bootstrap=jar: appending a jar to the bootstrap search path")
        .doesNotContain("WARNING");

    String copies = jvmTmp.toRealPath() + "/hfr-agent-";
    List<String> loaded = Files.readAllLines(classLog);
    assertThat(loaded).as("the bridge, from the jar on the bootstrap search path")
        .anyMatch(line -> line.contains(" dev.hfr.agent.internal.bootstrap.HfrBridge source: ") && line.contains(copies + "bootstrap-"));
    assertThat(loaded).as("Byte Buddy, from the weaver's nested jar, not from a copy in the temporary folder")
        .anyMatch(line -> line.contains(" " + SHADED_BYTE_BUDDY + "asm.Advice source: "))
        .noneMatch(line -> line.contains(copies + "weaver-"));
    try (Stream<Path> left = Files.list(jvmTmp)) {
      assertThat(left).as("what the JVM left in its temporary folder").isEmpty();
    }
  }

  @Test
  @DisplayName("a value other than define or jar is reported on stderr, and the bridge is defined directly, with no file")
  void unknownValueReported(@TempDir Path tmp) throws Exception {
    String stderr = ForkedJvm.runToExit(
        List.of("-Djava.io.tmpdir=" + tmp, "-Dhfr.agent.bootstrap=unsafe", ForkedJvm.javaagent("summary.interval=0s")),
        ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), StartupProbe.class);

    assertThat(stderr).contains("[hfr-agent] WARNING: -Dhfr.agent.bootstrap=unsafe is neither define nor jar;"
        + " the bridge is defined directly (define)", "[hfr-agent] started on start-up");
    try (Stream<Path> written = Files.list(tmp)) {
      assertThat(written).as("files the JVM wrote into its temporary folder").isEmpty();
    }
  }
}
