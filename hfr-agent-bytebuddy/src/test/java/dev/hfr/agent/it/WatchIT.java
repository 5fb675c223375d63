package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The {@code watch} option, in JVMs that send one request with the JDK client, one with {@code HttpURLConnection}
 * and then one with OkHttp. The JDK's clients are woven as their classes load, by a transformer that is removed once
 * they all are; it stays registered, watching for OkHttp and Apache HttpClient classes as they load, only when they can appear
 * ({@code auto}: on the class path) or when asked ({@code all}). Whatever is not watched, the start line says.
 */
@DisplayName("-javaagent, watch=auto|all|jdk")
class WatchIT {

  private static final Pattern DRIVER = Pattern.compile(".*test-classes.*");
  private static final Pattern OKHTTP = Pattern.compile(".*(okhttp|okio|kotlin|jetbrains|annotations-).*");
  private static final String NOT_WATCHING = "not watching for okhttp, apache-httpclient5 (not on the class path;"
      + " set watch=all if a custom class loader loads them later)";

  static FaultServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new FaultServer();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @Test
  @DisplayName("auto, no library on the class path: the JDK's clients are recorded and the transformer removed once they are"
      + " woven; OkHttp loaded later is not, and the start line says so")
  void autoWithoutLibrariesKeepsNoTransformer() throws Exception {
    Run run = run("", DRIVER, lateOkHttpJars());

    assertThat(run.clients).containsExactly("jdk-httpclient", "http-url-connection");
    assertThat(run.stderr).contains("clients jdk-httpclient, http-url-connection; " + NOT_WATCHING)
        .contains("debug: removed the transformer: every JDK client is woven");
  }

  @Test
  @DisplayName("all: the transformer stays; OkHttp loaded after start-up by a class loader of its own is recorded")
  void allWatchesCustomClassLoaders() throws Exception {
    Run run = run("watch=all,", DRIVER, lateOkHttpJars());

    assertThat(run.clients).containsExactly("jdk-httpclient", "http-url-connection", "okhttp");
    assertThat(run.stderr).contains("clients jdk-httpclient, http-url-connection, okhttp, apache-httpclient5 (watched: watch=all)")
        .doesNotContain("removed the transformer");
  }

  @Test
  @DisplayName("auto, OkHttp on the class path: watched and recorded")
  void autoWatchesALibraryOnTheClassPath() throws Exception {
    Run run = run("", Pattern.compile(DRIVER.pattern() + "|" + OKHTTP.pattern()), List.of("classpath"));

    assertThat(run.clients).containsExactly("jdk-httpclient", "http-url-connection", "okhttp");
    assertThat(run.stderr).contains("okhttp, apache-httpclient5 (watched: okhttp on the class path)");
  }

  @Test
  @DisplayName("jdk: OkHttp on the class path is not watched, the JDK client is recorded")
  void jdkNeverWatches() throws Exception {
    Run run = run("watch=jdk,", Pattern.compile(DRIVER.pattern() + "|" + OKHTTP.pattern()), List.of("classpath"));

    assertThat(run.clients).containsExactly("jdk-httpclient", "http-url-connection");
    assertThat(run.stderr).contains("; not watching for okhttp, apache-httpclient5 (watch=jdk)");
  }

  /** What one driver JVM recorded (the clients of its events, in order) and said on stderr. */
  private record Run(List<String> clients, String stderr) {}

  private static Run run(String options, Pattern classpath, List<String> okhttpFrom) throws Exception {
    Path events = Files.createTempFile("hfr-agent-watch", ".jsonl");
    List<String> args = new ArrayList<>(List.of(server.baseUrl()));
    args.addAll(okhttpFrom);
    try (ForkedJvm jvm = ForkedJvm.start(
        List.of("-Dhfr.agent.debug=true", ForkedJvm.javaagent(options + "events=" + events + ",events.successes=true,summary.interval=0s")),
        ForkedJvm.testClasspath(classpath), LateClientDriver.class, args.toArray(String[]::new))) {
      List<String> seen = jvm.linesUntil(null, Duration.ofSeconds(120));
      assertThat(jvm.waitFor(Duration.ofSeconds(30))).isZero();
      assertThat(seen).as("what the application saw, with the agent").hasSize(3)
          .allSatisfy(line -> assertThat(line).contains("status=200"));
      assertThat(jvm.stderr()).doesNotContain("WARNING", "Exception");
      List<String> clients = Events.read(events).stream().map(e -> e.get("client").asText()).toList();
      return new Run(clients, jvm.stderr());
    } finally {
      Files.deleteIfExists(events);
    }
  }

  /** OkHttp's jars, for the driver to load OkHttp after start-up with a {@code URLClassLoader}. */
  private static List<String> lateOkHttpJars() {
    List<String> jars = List.of(ForkedJvm.testClasspath(OKHTTP).split(File.pathSeparator));
    assertThat(jars).anyMatch(j -> j.contains("okhttp"));
    return jars;
  }
}
