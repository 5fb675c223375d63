package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * {@code enforce=true}: the agent retries idempotent JDK HttpClient requests, and never a write without a
 * key. One application JVM sends the requests in turn; each test checks one of them.
 */
@DisplayName("-javaagent with enforce=true")
class EnforcementIT {

  static FaultServer server;
  static Path events;
  static List<String> seen;

  @BeforeAll
  static void runTheApplication() throws Exception {
    server = new FaultServer();
    events = Files.createTempFile("hfr-agent-enforce", ".jsonl");
    try (ForkedJvm app = ForkedJvm.start(
        List.of(ForkedJvm.javaagent("enforce=true,retry.base=10ms,retry.cap=50ms,summary.interval=0s,events=" + events)),
        // a success between the failing requests: five failures in a row would open the host's breaker
        "requests", server.baseUrl(), "GET:/flaky", "GET:/ok", "GET:/rate", "GET:/ok", "POST:/write", "GET:/ok",
        "POST:/keyed-write:order-42")) {
      seen = app.linesUntil(null, Duration.ofSeconds(120));
      assertThat(app.waitFor(Duration.ofSeconds(30))).isZero();
      assertThat(app.stderr()).contains("mode enforce");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    server.close();
    Files.deleteIfExists(events);
  }

  private static List<JsonNode> eventsWithStatus(int status, String risk) throws Exception {
    return Events.read(events).stream()
        .filter(e -> e.get("status").asInt() == status && e.get("risk").asText().equals(risk)).toList();
  }

  @Test
  @DisplayName("a GET that fails twice with 503 is retried and the application gets the 200")
  void retriesAGetUntilItSucceeds() throws Exception {
    assertThat(seen.get(0)).isEqualTo("status=200 body=ok after 3");
    assertThat(server.count("/flaky")).isEqualTo(3);
    List<JsonNode> retried = eventsWithStatus(503, "R0");
    assertThat(retried).extracting(Events::outcome).containsExactly("503 T1 RETRY", "503 T1 RETRY");
    assertThat(retried).extracting(e -> e.get("attempt").asInt()).containsExactly(1, 2);
    assertThat(retried).allSatisfy(e -> assertThat(e.get("enforced").asBoolean()).isTrue());
  }

  @Test
  @DisplayName("a POST without an Idempotency-Key is sent once; the application gets the 503")
  void neverRetriesAPostWithoutAKey() throws Exception {
    assertThat(seen.get(4)).isEqualTo("status=503 body=unavailable");
    assertThat(server.count("/write")).isEqualTo(1);
    assertThat(eventsWithStatus(503, "R2")).singleElement().satisfies(e -> {
      assertThat(Events.outcome(e)).isEqualTo("503 T1 RECONCILE");
      assertThat(e.get("enforced").asBoolean()).isFalse();
    });
  }

  @Test
  @DisplayName("a POST with an Idempotency-Key is retried up to the attempt bound, then the application gets the last 503")
  void retriesAPostWithAKeyWithinTheBound() throws Exception {
    assertThat(seen.get(6)).isEqualTo("status=503 body=unavailable");
    assertThat(server.count("/keyed-write")).isEqualTo(3);
    assertThat(eventsWithStatus(503, "R1")).extracting(e -> e.get("enforced").asBoolean()).containsExactly(true, true, false);
  }

  @Test
  @DisplayName("a 429 is retried no sooner than its Retry-After, within the bound")
  void honoursRetryAfter() throws Exception {
    assertThat(seen.get(2)).isEqualTo("status=429 body=slow down");
    assertThat(server.count("/rate")).isEqualTo(3);
    assertThat(eventsWithStatus(429, "R0")).extracting(e -> e.get("delayMillis").asLong()).containsExactly(1000L, 1000L, 0L);
  }
}
