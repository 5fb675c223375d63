package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.bench.StartupProbe;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Micrometer and Prometheus's client are a jar nested in the agent jar, which a JVM with {@code prometheus.port} copies
 * to its temporary folder and appends to the system class loader's search path (docs/AGENT.md, "Sixth round").
 */
@DisplayName("the nested libraries jar")
class NestedLibrariesIT {

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
  @DisplayName("with prometheus.port, Micrometer is loaded from the copy in the temporary folder, which is gone after exit")
  void copiedThenDeleted() throws Exception {
    Path tmp = Files.createTempDirectory("hfr-agent-tmp");
    Path classLog = Files.createTempFile("hfr-agent-classes", ".log");
    try {
      String stderr = probe(tmp, classLog, "prometheus.port=0,summary.interval=0s");
      String copyIn = tmp.toRealPath().toString();

      assertThat(stderr).contains("[hfr-agent] prometheus endpoint: http://").doesNotContain("WARNING");
      assertThat(Files.readAllLines(classLog)).as("Micrometer's registry, loaded from the copy")
          .anyMatch(line -> line.contains("dev.hfr.agent.shaded.io.micrometer.prometheusmetrics.PrometheusMeterRegistry ")
              && line.contains(copyIn));
      try (Stream<Path> left = Files.list(tmp)) {
        assertThat(left).as("what the JVM left in its temporary folder").isEmpty();
      }
    } finally {
      Files.deleteIfExists(classLog);
      try (Stream<Path> left = Files.list(tmp)) {
        for (Path p : left.toList()) {
          Files.delete(p);
        }
      }
      Files.delete(tmp);
    }
  }

  @Test
  @DisplayName("when it cannot be copied (no temporary folder), the endpoint is off with a warning and the request is still recorded")
  void noTemporaryFolder() throws Exception {
    Path events = Files.createTempFile("hfr-agent-nested", ".jsonl");
    Path classLog = Files.createTempFile("hfr-agent-classes", ".log");
    try {
      String stderr = probe(Path.of("/nonexistent-hfr-agent-tmp"), classLog,
          "prometheus.port=0,summary.interval=0s,events=" + events + ",events.successes=true");

      assertThat(stderr).contains("[hfr-agent] WARNING: no prometheus endpoint on 127.0.0.1:0: could not open the agent's nested jar")
          .doesNotContain("could not start recording");
      assertThat(Files.readAllLines(events)).as("stderr:%n%s", stderr).singleElement().asString()
          .contains("\"client\":\"jdk-httpclient\"", "\"status\":200");
    } finally {
      Files.deleteIfExists(events);
      Files.deleteIfExists(classLog);
    }
  }

  /** Runs {@link StartupProbe} with one request, the agent and {@code tmpdir}; its stderr. */
  private static String probe(Path tmpdir, Path classLog, String agentOptions) throws IOException, InterruptedException {
    return ForkedJvm.runToExit(
        List.of("-Djava.io.tmpdir=" + tmpdir, ForkedJvm.classLoadLog(classLog), ForkedJvm.javaagent(agentOptions)),
        ForkedJvm.testClasspath(ForkedJvm.TEST_CLASSES), StartupProbe.class, server.baseUrl() + "/ok");
  }

}
