package dev.hfr.agent.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** {@code enforce=true}: the agent retries idempotent JDK HttpClient requests, and never a write without a key. */
@DisplayName("-javaagent with enforce=true")
class EnforcementIT {

  private FaultServer server;
  private Path events;

  @BeforeEach
  void start() throws Exception {
    server = new FaultServer();
    events = Files.createTempFile("hfr-agent-enforce", ".jsonl");
  }

  @AfterEach
  void stop() throws Exception {
    server.close();
    Files.deleteIfExists(events);
  }

  private String run(String... driverArgs) throws Exception {
    try (ForkedJvm app = ForkedJvm.start(
        List.of(ForkedJvm.javaagent("enforce=true,retry.base=10ms,retry.cap=50ms,summary.interval=0s,events=" + events)),
        driverArgs)) {
      List<String> out = app.linesUntil(null, Duration.ofSeconds(90));
      assertThat(app.waitFor(Duration.ofSeconds(30))).isZero();
      assertThat(out).hasSize(1);
      return out.get(0);
    }
  }

  @Test
  @DisplayName("a GET that fails twice with 503 is retried and the application gets the 200")
  void retriesAGetUntilItSucceeds() throws Exception {
    assertThat(run("get", server.baseUrl(), "/flaky")).isEqualTo("status=200 body=ok after 3");
    assertThat(server.count("/flaky")).isEqualTo(3);
    List<JsonNode> retried = Events.read(events);
    assertThat(retried).extracting(Events::outcome).containsExactly("503 T1 RETRY", "503 T1 RETRY");
    assertThat(retried).extracting(e -> e.get("attempt").asInt()).containsExactly(1, 2);
    assertThat(retried).allSatisfy(e -> assertThat(e.get("enforced").asBoolean()).isTrue());
  }

  @Test
  @DisplayName("a POST without an Idempotency-Key is sent once; the application gets the 503")
  void neverRetriesAPostWithoutAKey() throws Exception {
    assertThat(run("post", server.baseUrl(), "/write")).isEqualTo("status=503 body=unavailable");
    assertThat(server.count("/write")).isEqualTo(1);
    assertThat(Events.read(events)).singleElement().satisfies(e -> {
      assertThat(Events.outcome(e)).isEqualTo("503 T1 RECONCILE");
      assertThat(e.get("risk").asText()).isEqualTo("R2");
      assertThat(e.get("enforced").asBoolean()).isFalse();
    });
  }

  @Test
  @DisplayName("a POST with an Idempotency-Key is retried within the attempt bound, then the application gets the last 503")
  void retriesAPostWithAKeyWithinTheBound() throws Exception {
    assertThat(run("post", server.baseUrl(), "/write", "order-42")).isEqualTo("status=503 body=unavailable");
    assertThat(server.count("/write")).isEqualTo(3);
    assertThat(Events.read(events)).extracting(e -> e.get("enforced").asBoolean()).containsExactly(true, true, false);
  }

  @Test
  @DisplayName("a 429 is retried no sooner than its Retry-After")
  void honoursRetryAfter() throws Exception {
    long started = System.nanoTime();
    assertThat(run("get", server.baseUrl(), "/rate")).isEqualTo("status=429 body=slow down");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isGreaterThanOrEqualTo(Duration.ofSeconds(2));
    assertThat(server.count("/rate")).isEqualTo(3);
    assertThat(Events.read(events)).extracting(e -> e.get("delayMillis").asLong()).containsExactly(1000L, 1000L, 0L);
  }
}
