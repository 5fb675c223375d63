package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar hfr-agent.jar attach PID} on a JVM that has already loaded (and used) every client:
 * the agent retransforms them, and the running application's later requests are classified, counted in
 * the meters served on the Prometheus endpoint, and seen by the application unchanged.
 */
@DisplayName("attach to a running JVM")
class AttachIT {

  private static final Pattern ENDPOINT = Pattern.compile("prometheus endpoint: (http://127\\.0\\.0\\.1:\\d+/metrics)");
  /** The four lines JDK 21–25 print for an agent loaded into a running JVM (JEP 451). */
  private static final Pattern DYNAMIC_LOADING_NOTICE = Pattern.compile("^WARNING: (A Java agent has been loaded dynamically"
      + "|If a serviceability tool is (not )?in use, please run with -(XX:\\+EnableDynamicAgentLoading|Djdk\\.instrument\\.traceUsage)"
      + "|Dynamic loading of agents will be disallowed by default)");
  private static final Pattern SAMPLE = Pattern.compile("^([a-z_]+)\\{(.*)} ([0-9.E+-]+)$");

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
  @DisplayName("retransforms the loaded clients; the meters show class and action per client; the application sees the same")
  void attachesAndRecords() throws Exception {
    Path events = Files.createTempFile("hfr-agent-attach", ".jsonl");
    try (ForkedJvm without = ForkedJvm.start(List.of(), "matrix", server.baseUrl());
        ForkedJvm app = ForkedJvm.start(List.of(), "attach-matrix", server.baseUrl())) {
      assertThat(app.nextLine(Duration.ofSeconds(60))).isEqualTo("READY");

      Process attach = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-jar", ForkedJvm.agentJar().toString(), "attach", Long.toString(app.pid()),
          "prometheus.port=0,summary.interval=0s,events=" + events)
          .redirectErrorStream(true).start();
      String attachOutput = new String(attach.getInputStream().readAllBytes());
      assertThat(attach.waitFor()).as(attachOutput).isZero();
      String metricsUrl = awaitEndpoint(app);

      app.send("go");
      List<String> instrumented = app.linesUntil("DONE", Duration.ofSeconds(120));
      List<String> plain = without.linesUntil(null, Duration.ofSeconds(120));
      assertThat(instrumented).as("what the application saw, attached vs without the agent").containsExactlyElementsOf(plain);
      assertThat(app.stderr()).contains("[hfr-agent] started on attach");
      assertThat(jvmWarningsBesidesDynamicLoading(app.stderr())).as("warnings on the application's stderr").isEmpty();
      if (Runtime.version().feature() >= 21) {
        // JEP 451: JDK 21+ warns when an agent is loaded into a JVM not started with -XX:+EnableDynamicAgentLoading
        assertThat(app.stderr()).contains("WARNING: A Java agent has been loaded dynamically");
      }

      Map<String, Double> attempts = scrape(metricsUrl);
      // one line of the report: okhttp (execute and enqueue) got two 429s, HFR would retry them
      assertThat(attempts).containsEntry("client=okhttp,class=T2,action=retry,outcome=failure", 2.0);
      for (String client : List.of("jdk-httpclient", "http-url-connection", "okhttp", "apache-httpclient5")) {
        int times = client.equals("http-url-connection") ? 1 : 2; // two each: send and sendAsync, execute and enqueue, classic and async
        assertThat(attempts).as(client)
            .containsEntry("client=" + client + ",class=none,action=none,outcome=success", (double) times)
            .containsEntry("client=" + client + ",class=T1,action=retry,outcome=failure", 2.0 * times)
            .containsEntry("client=" + client + ",class=T2,action=retry,outcome=failure", (double) times)
            .containsEntry("client=" + client + ",class=T3,action=retry,outcome=failure", (double) times)
            .containsEntry("client=" + client + ",class=T4,action=degrade_model,outcome=failure", (double) times);
      }
      assertThat(attempts).containsEntry("client=jdk-httpclient,class=T6,action=compress,outcome=failure", 2.0)
          .containsEntry("client=jdk-httpclient,class=T7,action=fail,outcome=failure", 4.0)
          .containsEntry("client=apache-httpclient5,class=T7,action=fail,outcome=failure", 6.0);
      System.out.println("meters of the attached JVM:\n" + attempts.entrySet().stream()
          .map(e -> "  harness_attempts_total{" + e.getKey() + "} " + e.getValue()).sorted().collect(Collectors.joining("\n")));

      app.send("exit");
      assertThat(app.waitFor(Duration.ofSeconds(30))).isZero();
      assertThat(Events.read(events)).hasSize((ClientDriver.SCENARIOS.size() - 1) * ClientDriver.CLIENTS.size()); // successes are not written by default
    } finally {
      Files.deleteIfExists(events);
    }
  }

  /**
   * The {@code WARNING} lines on stderr other than the JVM's own notice that an agent was loaded
   * dynamically (JEP 451, JDK 21+: expected when attaching, documented in docs/AGENT.md). Anything else —
   * the CDS "Sharing is only supported" line, an illegal-access or a deprecation warning — is the agent's doing.
   */
  static List<String> jvmWarningsBesidesDynamicLoading(String stderr) {
    return stderr.lines()
        .filter(line -> line.contains("WARNING"))
        .filter(line -> !DYNAMIC_LOADING_NOTICE.matcher(line).find())
        .toList();
  }

  private static String awaitEndpoint(ForkedJvm app) throws InterruptedException {
    for (int i = 0; i < 600; i++) {
      Matcher m = ENDPOINT.matcher(app.stderr());
      if (m.find()) {
        return m.group(1);
      }
      Thread.sleep(100);
    }
    throw new AssertionError("the agent did not report its endpoint; stderr:\n" + app.stderr());
  }

  /** {@code harness_attempts_total} samples keyed by client, class, action and outcome (host, method and mode are checked here). */
  private static Map<String, Double> scrape(String url) throws Exception {
    String body = HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString()).body();
    Map<String, Double> attempts = new HashMap<>();
    List<String> lines = new ArrayList<>(body.lines().toList());
    for (String line : lines) {
      Matcher m = SAMPLE.matcher(line);
      if (!m.matches() || !m.group(1).equals("harness_attempts_total")) {
        continue;
      }
      Map<String, String> labels = new HashMap<>();
      for (String pair : m.group(2).split(",")) {
        int eq = pair.indexOf('=');
        labels.put(pair.substring(0, eq), pair.substring(eq + 2, pair.length() - 1));
      }
      assertThat(labels).containsEntry("host", "127.0.0.1").containsEntry("method", "GET").containsEntry("mode", "shadow");
      attempts.merge("client=" + labels.get("client") + ",class=" + labels.get("class") + ",action=" + labels.get("action")
          + ",outcome=" + labels.get("outcome"), Double.parseDouble(m.group(3)), Double::sum);
    }
    assertThat(attempts).as("harness_attempts_total in %s", body).isNotEmpty();
    return attempts;
  }
}
