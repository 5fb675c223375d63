package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hfr.agent.bench.StartupProbe;
import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * An application whose own class path carries this module's plain jar ({@code hfr-agent-bytebuddy-VERSION.jar}, e.g.
 * as a library for {@code AttachMain}) with its dependencies, and runs with {@code -javaagent:hfr-agent.jar} too: the
 * application class loader then finds the agent's classes in the plain jar first. Whatever the agent changes in how
 * its classes are loaded (the bootstrap loader, the nested libraries jar) must keep this working; an earlier version
 * did not (docs/AGENT.md, "Fifth round": an {@code IllegalAccessError}, nothing recorded).
 */
@DisplayName("the module's plain jar on the application's class path beside -javaagent")
class ModuleJarBesideAgentIT {

  private static final Pattern ENDPOINT = Pattern.compile("prometheus endpoint: (http://127\\.0\\.0\\.1:\\d+/metrics)");

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
  @DisplayName("the request is recorded and the Prometheus endpoint counts it, with no warning")
  void requestIsRecorded() throws Exception {
    Path events = Files.createTempFile("hfr-agent-module-jar", ".jsonl");
    try {
      String err = ForkedJvm.runToExit(
          List.of(ForkedJvm.javaagent("events=" + events + ",events.successes=true,prometheus.port=0,summary.interval=0s")),
          applicationClassPath(), StartupProbe.class, server.baseUrl() + "/ok");

      assertThat(err).contains("[hfr-agent] started on start-up").doesNotContain("WARNING", "Error", "Exception");
      Matcher endpoint = ENDPOINT.matcher(err);
      assertThat(endpoint.find()).as("the endpoint started; stderr:%n%s", err).isTrue();
      assertThat(Files.readAllLines(events)).as("stderr:%n%s", err).singleElement().asString()
          .contains("\"client\":\"jdk-httpclient\"", "\"status\":200");
    } finally {
      Files.deleteIfExists(events);
    }
  }

  @Test
  @DisplayName("the Prometheus endpoint of a running JVM serves the meters, Micrometer loaded from the nested jar")
  void endpointServes() throws Exception {
    try (ForkedJvm app = ForkedJvm.start(
        List.of(ForkedJvm.javaagent("prometheus.port=0,summary.interval=0s")),
        applicationClassPath(), ClientDriver.class, "attach-matrix", "http://127.0.0.1:1/")) {
      String url = null;
      for (int i = 0; i < 600 && url == null; i++) {
        Matcher m = ENDPOINT.matcher(app.stderr());
        if (m.find()) {
          url = m.group(1);
        } else {
          Thread.sleep(100);
        }
      }
      assertThat(url).as("the endpoint's address on stderr:%n%s", app.stderr()).isNotNull();
      HttpResponse<String> metrics = HttpClient.newHttpClient()
          .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("# TYPE");
      assertThat(app.stderr()).doesNotContain("WARNING", "Error", "Exception");
    }
  }

  /**
   * This module's plain jar, then what a Maven project depending on it has: its dependencies (the runtime,
   * Micrometer, ASM... unrelocated), and the probe and the client driver (the test classes). Not the module's classes
   * directory, which the plain jar stands for.
   */
  private static final List<String> CLASSIFIED = List.of("-sources.jar", "-javadoc.jar", "-agent.jar", "-tests.jar");

  private static String applicationClassPath() throws IOException {
    Path target = ForkedJvm.agentJar().getParent();
    List<Path> plainJars = new ArrayList<>();
    try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "hfr-agent-bytebuddy-*.jar")) {
      for (Path jar : jars) {
        String name = jar.getFileName().toString();
        // the release profile also builds the javadoc jar; the shaded one is hfr-agent.jar
        if (CLASSIFIED.stream().noneMatch(name::endsWith)) {
          plainJars.add(jar);
        }
      }
    }
    assertThat(plainJars).as("the module's plain jar in %s", target).hasSize(1);
    String classes = target.resolve("classes").toString();
    String rest = Arrays.stream(System.getProperty("java.class.path").split(File.pathSeparator))
        .filter(e -> !Path.of(e).toAbsolutePath().toString().equals(classes))
        .collect(Collectors.joining(File.pathSeparator));
    return plainJars.get(0) + File.pathSeparator + rest;
  }
}
