package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code enforce=true} on every client the agent enforces: one application JVM per client sends the same requests
 * through it to a loopback server that counts them. Idempotent requests are retried (with the backoff, the rate-limit
 * headers, the breaker and the budget); a POST without an {@code Idempotency-Key} is never sent twice. The 429s carry
 * each rate-limit header the agent honours but {@code Retry-After}, whose whole seconds would add seconds per client:
 * it is covered by {@code ShadowModeIT}'s classification and {@code RetryEnforcerTest}.
 */
@DisplayName("-javaagent with enforce=true")
class EnforcementIT {

  /** What each client's JVM sends, in order ({@code ClientDriver}'s client-requests); {@code {c}} is the client. */
  private static final List<String> REQUESTS = List.of("GET:/flaky/{c}", "POST:/write/{c}", "POST:/keyed-write/{c}:order-42",
      "GET:/anthropic-rate/{c}", "GET:/openai-rate/{c}", "DELETE:/flaky/{c}-delete", "GET:/ms-rate/{c}", "GET:/tokens-rate/{c}");

  static FaultServer server;

  @BeforeAll
  static void startServer() throws Exception {
    server = new FaultServer();
  }

  @AfterAll
  static void stopServer() {
    server.close();
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"jdk-send", "jdk-async", "okhttp", "okhttp-async", "apache5", "apache5-async"})
  @DisplayName("retries idempotent requests until they succeed or the bound, honours rate-limit headers, never resends a POST without a key")
  void enforcesOn(String client) throws Exception {
    Path events = Files.createTempFile("hfr-agent-enforce", ".jsonl");
    List<String> seen;
    List<String> args = new ArrayList<>(List.of("client-requests", server.baseUrl(), client));
    REQUESTS.forEach(r -> args.add(r.replace("{c}", client)));
    try (ForkedJvm app = ForkedJvm.start(
        List.of(ForkedJvm.javaagent("enforce=true,retry.base=10ms,retry.cap=50ms,summary.interval=0s,events=" + events)),
        args.toArray(String[]::new))) {
      seen = app.linesUntil(null, Duration.ofSeconds(120));
      assertThat(app.waitFor(Duration.ofSeconds(30))).isZero();
      assertThat(app.stderr()).contains("mode enforce").doesNotContain("WARNING");
    }
    try {
      List<JsonNode> recorded = Events.read(events).stream().filter(e -> e.get("status").asInt() != 200).toList();

      assertThat(seen.get(0)).as("a GET answered 503 twice, then 200: the application gets the 200").isEqualTo("status=200 body=ok after 3");
      assertThat(server.count("/flaky/" + client)).as("the GET and its two retries").isEqualTo(3);
      assertThat(recorded).filteredOn(e -> e.get("method").asText().equals("GET") && e.get("status").asInt() == 503)
          .extracting(e -> e.get("attempt").asInt() + " " + Events.outcome(e) + " enforced=" + e.get("enforced").asBoolean())
          .containsExactly("1 503 T1 RETRY enforced=true", "2 503 T1 RETRY enforced=true");

      assertThat(seen.get(1)).as("a POST without a key: the 503 goes to the application").isEqualTo("status=503 body=unavailable");
      assertThat(server.count("/write/" + client)).as("a POST without a key is sent once").isEqualTo(1);
      assertThat(recorded).filteredOn(e -> e.get("risk").asText().equals("R2")).singleElement()
          .satisfies(e -> assertThat(Events.outcome(e)).isEqualTo("503 T1 RECONCILE"))
          .satisfies(e -> assertThat(e.get("enforced").asBoolean()).isFalse());

      assertThat(seen.get(2)).as("a keyed POST failing every time: the last 503").isEqualTo("status=503 body=unavailable");
      assertThat(server.count("/keyed-write/" + client)).as("a keyed POST, up to retry.max.attempts (3)").isEqualTo(3);

      assertThat(List.of(seen.get(3), seen.get(4), seen.get(6), seen.get(7))).as("anthropic, openai requests, ms, openai tokens")
          .containsOnly("status=200 body=ok after 2");
      assertThat(recorded).as("429s: the retry waited for the reset the headers gave (%s ms ahead)", FaultServer.RESET_MILLIS)
          .filteredOn(e -> e.get("status").asInt() == 429 && e.get("attempt").asInt() == 1 && e.get("enforced").asBoolean())
          .hasSize(4)
          .allSatisfy(e -> assertThat(e.get("delayMillis").asLong()).isGreaterThanOrEqualTo(FaultServer.RESET_MILLIS / 2));

      assertThat(seen.get(5)).as("a DELETE is idempotent: retried like the GET").isEqualTo("status=200 body=ok after 3");
      assertThat(server.count("/flaky/" + client + "-delete")).isEqualTo(3);
    } finally {
      Files.deleteIfExists(events);
    }
  }
}
