package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The agent loaded with {@code -javaagent}, in shadow mode, in a JVM driving every client against a real
 * server: each response is classified and given the action HFR would take, and the application sees
 * exactly what it sees without the agent.
 */
@DisplayName("-javaagent, shadow mode")
class ShadowModeIT {

  /** What every client should record, by status: the class and the action for a GET (R0, MEDIUM). */
  static final Map<String, String> EXPECTED_BY_SCENARIO = Map.of(
      "ok", "200 - -", // with events.successes=true
      "rate", "429 T2 RETRY",
      "error", "500 T1 RETRY",
      "unavailable", "503 T1 RETRY",
      "overloaded", "529 T4 DEGRADE_MODEL",
      "context", "400 T7 FAIL", // no body: these clients' bodies are streams the agent never reads
      "unauthorized", "401 T7 FAIL",
      "forbidden", "403 T7 FAIL",
      "hang", "0 T3 RETRY");

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
  @DisplayName("classifies every response of every client and leaves what the application sees unchanged")
  void classifiesEveryClientAndChangesNothing() throws Exception {
    Path events = Files.createTempFile("hfr-agent-events", ".jsonl");
    try (ForkedJvm without = ForkedJvm.start(List.of(), "matrix", server.baseUrl());
        ForkedJvm with = ForkedJvm.start(List.of(ForkedJvm.javaagent("events=" + events + ",events.successes=true,summary.interval=0s")),
            "matrix", server.baseUrl())) {
      List<String> plain = without.linesUntil(null, Duration.ofSeconds(120));
      List<String> instrumented = with.linesUntil(null, Duration.ofSeconds(120));
      assertThat(with.waitFor(Duration.ofSeconds(30))).isZero();

      assertThat(plain).hasSize(ClientDriver.CLIENTS.size() * ClientDriver.SCENARIOS.size());
      assertThat(instrumented).as("what the application saw, with the agent vs without").containsExactlyElementsOf(plain);
      assertThat(with.stderr()).contains("[hfr-agent] started on start-up").doesNotContain("WARNING", "Exception");

      Map<String, List<String>> byClient = Events.read(events).stream()
          .collect(Collectors.groupingBy(e -> e.get("client").asText(), Collectors.mapping(Events::outcome, Collectors.toList())));
      assertThat(byClient.get("jdk-httpclient")).containsExactlyInAnyOrderElementsOf(expected(2, true));
      assertThat(byClient.get("http-url-connection")).containsExactlyInAnyOrderElementsOf(expected(1, false));
      assertThat(byClient.get("okhttp")).containsExactlyInAnyOrderElementsOf(expected(2, false));
      assertThat(byClient.get("apache-httpclient5")).as("classic and async").containsExactlyInAnyOrderElementsOf(expected(2, false));
      assertThat(byClient).containsOnlyKeys("jdk-httpclient", "http-url-connection", "okhttp", "apache-httpclient5");

      for (JsonNode e : Events.read(events)) {
        assertThat(e.get("mode").asText()).isEqualTo("shadow");
        assertThat(e.get("enforced").asBoolean()).isFalse();
        assertThat(e.get("host").asText()).isEqualTo("127.0.0.1");
        assertThat(e.toString()).doesNotContain("http://", "/rate", "slow down");
      }
    } finally {
      Files.deleteIfExists(events);
    }
  }

  /**
   * The expected outcomes of one client, {@code times} requests per scenario. The JDK client's string body
   * handler has buffered the 400's body, so the agent reads the context-length error there (T6, compress).
   */
  static List<String> expected(int times, boolean bufferedBody) {
    List<String> all = new ArrayList<>();
    for (String scenario : ClientDriver.SCENARIOS) {
      String outcome = bufferedBody && scenario.equals("context") ? "400 T6 COMPRESS" : EXPECTED_BY_SCENARIO.get(scenario);
      for (int i = 0; i < times; i++) {
        all.add(outcome);
      }
    }
    for (int i = 0; i < times; i++) {
      all.add("200 - -"); // the driver's warm-up request
    }
    return all;
  }
}
