package dev.hfr.bench.live;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hfr.bench.live.service.FaultPlan;
import dev.hfr.bench.live.service.LiveServices;
import dev.hfr.bench.live.service.WireFault;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

@DisplayName("The live services answer like real ones and count side effects themselves")
class LiveServicesTest {

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private LiveServices services;

  @AfterEach
  void stop() {
    if (services != null) {
      services.close();
    }
  }

  private LiveServices start(Map<String, List<WireFault>> faults) throws IOException {
    services = LiveServices.start(new FaultPlan(1, faults.isEmpty() ? 0 : 1.0, 0, 1, faults), 1500);
    return services;
  }

  private HttpResponse<String> post(URI uri, String path, String body, String key) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofMillis(1000))
        .header("x-task", "7").header("content-type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(body));
    if (key != null) {
      b.header("Idempotency-Key", key);
    }
    return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void paymentsHonourIdempotencyKeysAndChargeAgainWithoutOne() throws Exception {
    LiveServices s = start(Map.of());
    HttpResponse<String> first = post(s.paymentUri(), "/payments", "{\"ref\":\"t7\",\"cents\":100}", "k1");
    HttpResponse<String> replay = post(s.paymentUri(), "/payments", "{\"ref\":\"t7\",\"cents\":100}", "k1");
    assertThat(first.statusCode()).isEqualTo(201);
    assertThat(replay.statusCode()).isEqualTo(200);
    assertThat(replay.headers().firstValue("idempotent-replayed")).hasValue("true");
    assertThat(s.payments().effects("t7")).isEqualTo(1);
    post(s.paymentUri(), "/payments", "{\"ref\":\"t8\",\"cents\":100}", null);
    post(s.paymentUri(), "/payments", "{\"ref\":\"t8\",\"cents\":100}", null);
    assertThat(s.payments().duplicates()).isEqualTo(1);
  }

  @Test
  void anOrderCommittedBeforeTheConnectionDroppedIsFoundByLookup() throws Exception {
    LiveServices s = start(Map.of(LiveServices.OP_ORDER_CREATE, List.of(WireFault.COMMIT_THEN_DROP)));
    assertThatThrownBy(() -> post(s.orderUri(), "/orders", "{\"ref\":\"t7\",\"item\":\"book\",\"qty\":1}", null))
        .isInstanceOf(IOException.class);
    assertThat(s.orders().effects("t7")).isEqualTo(1);
    HttpResponse<String> lookup = http.send(HttpRequest.newBuilder(s.orderUri().resolve("/orders?ref=t7")).header("x-task", "7").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(lookup.statusCode()).isEqualTo(200);
    assertThat(lookup.body()).contains("\"ref\":\"t7\"");
  }

  @Test
  void aRateLimitCarriesRetryAfterLikeAProvider() throws Exception {
    LiveServices s = start(Map.of(LiveServices.OP_MODEL_PRIMARY, List.of(WireFault.RATE_LIMITED)));
    HttpResponse<String> r = post(s.modelUri(), "/v1/models/primary/messages", "{\"prompt\":\"hi\"}", null);
    assertThat(r.statusCode()).isEqualTo(429);
    assertThat(r.headers().firstValue("retry-after")).hasValue("1");
    assertThat(r.body()).contains("rate_limit_error");
  }

  @Test
  void anOverloadedModelAnswers529AndStaysOverloadedForTheTask() throws Exception {
    LiveServices s = start(Map.of(LiveServices.OP_MODEL_PRIMARY, List.of(WireFault.OVERLOADED)));
    HttpResponse<String> r = post(s.modelUri(), "/v1/models/primary/messages", "{\"prompt\":\"hi\"}", null);
    assertThat(r.statusCode()).isEqualTo(529);
    assertThat(r.body()).contains("overloaded_error");
    HttpResponse<String> backup = post(s.modelUri(), "/v1/models/backup/messages", "{\"prompt\":\"hi\"}", null);
    assertThat(backup.statusCode()).isEqualTo(200);
    assertThat(backup.body()).contains("\"answer_of\"");
  }

  @Test
  void aTimeoutHoldsTheResponsePastTheClientsTimeout() throws Exception {
    LiveServices s = start(Map.of(LiveServices.OP_EMAIL, List.of(WireFault.COMMIT_THEN_TIMEOUT)));
    assertThatThrownBy(() -> post(s.emailUri(), "/emails", "{\"ref\":\"t7\"}", null))
        .isInstanceOf(java.net.http.HttpTimeoutException.class);
    assertThat(s.emails().effects("t7")).isEqualTo(1);
  }
}
