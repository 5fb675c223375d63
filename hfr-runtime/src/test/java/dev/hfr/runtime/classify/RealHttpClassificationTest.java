package dev.hfr.runtime.classify;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hfr.annotations.Fault;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * A real HTTP server on 127.0.0.1 answers like the providers do; the JDK HttpClient reads the responses
 * (or fails), and what it saw is classified.
 */
@DisplayName("Responses and failures read by the JDK HttpClient from a real local server are classified")
class RealHttpClassificationTest {

  private static HttpServer server;
  private static ExecutorService executor;
  private static HttpClient client;
  private static final CountDownLatch RELEASE = new CountDownLatch(1);
  private final DefaultFailureClassifier classifier = new DefaultFailureClassifier();

  @BeforeAll
  static void start() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    executor = Executors.newFixedThreadPool(4);
    server.setExecutor(executor);
    server.createContext("/anthropic/429", ex -> reply(ex, 429, "application/json",
        "{\"type\":\"error\",\"error\":{\"type\":\"rate_limit_error\",\"message\":\"This request would exceed the rate "
            + "limit for your organization\u2019s 50,000 input tokens per minute.\"}}", "retry-after", "17"));
    server.createContext("/anthropic/529", ex -> reply(ex, 529, "application/json",
        "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}"));
    server.createContext("/openai/400", ex -> reply(ex, 400, "application/json",
        "{\"error\": {\"message\": \"This model's maximum context length is 8192 tokens.\", \"type\": "
            + "\"invalid_request_error\", \"param\": \"messages\", \"code\": \"context_length_exceeded\"}}"));
    server.createContext("/openai/quota", ex -> reply(ex, 429, "application/json",
        "{\"error\": {\"message\": \"You exceeded your current quota, please check your plan and billing details.\", "
            + "\"type\": \"insufficient_quota\", \"param\": null, \"code\": \"insufficient_quota\"}}"));
    server.createContext("/azure/403", ex -> reply(ex, 403, "application/json",
        "{\"error\":{\"code\":\"PermissionDenied\",\"message\":\"Principal does not have access to API/Operation.\"}}"));
    server.createContext("/503-date", ex -> reply(ex, 503, "text/plain", "Service Unavailable", "Retry-After",
        DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC).plusSeconds(120))));
    server.createContext("/empty", ex -> reply(ex, 200, "application/json", ""));
    server.createContext("/azure/filtered", ex -> reply(ex, 200, "application/json",
        "{\"choices\":[{\"finish_reason\":\"content_filter\",\"index\":0,\"message\":{\"role\":\"assistant\"}}]}"));
    server.createContext("/hang-up", ex -> ex.close()); // reads the request, closes without a response
    server.createContext("/slow", ex -> {
      try {
        RELEASE.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      reply(ex, 200, "text/plain", "late");
    });
    server.start();
    client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).version(HttpClient.Version.HTTP_1_1).build();
  }

  @AfterAll
  static void stop() {
    RELEASE.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  private static void reply(HttpExchange ex, int status, String type, String body, String... headers) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", type);
    for (int i = 0; i + 1 < headers.length; i += 2) {
      ex.getResponseHeaders().add(headers[i], headers[i + 1]);
    }
    ex.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
  }

  /** Sends a request and classifies what was seen: the response, or the exception. */
  private Classification call(String path, Duration timeout, boolean bodyExpected) throws InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri(path)).timeout(timeout)
        .POST(HttpRequest.BodyPublishers.ofString("{\"q\":1}")).build();
    long start = System.nanoTime();
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      Observation o = Observation.fromHttpResponse(response, Duration.ofNanos(System.nanoTime() - start));
      if (bodyExpected) {
        o = Observation.builder().httpStatus(o.httpStatus()).body(o.body()).bodyExpected(true).build();
      }
      return classifier.classify(o);
    } catch (IOException e) {
      return classifier.classify(Observation.builder().exception(e).latency(Duration.ofNanos(System.nanoTime() - start))
          .build());
    }
  }

  private Classification call(String path) throws InterruptedException {
    return call(path, Duration.ofSeconds(5), false);
  }

  @Test
  void anthropicRateLimitWithRetryAfter() throws Exception {
    Classification c = call("/anthropic/429");
    assertThat(c.fault()).isEqualTo(Fault.T2);
    assertThat(c.retryAfterMillis()).isEqualTo(17_000);
  }

  @Test
  void anthropicOverloaded() throws Exception {
    assertThat(call("/anthropic/529").fault()).isEqualTo(Fault.T4);
  }

  @Test
  void openAiContextLengthAndQuota() throws Exception {
    assertThat(call("/openai/400").fault()).isEqualTo(Fault.T6);
    assertThat(call("/openai/quota").fault()).isEqualTo(Fault.T7);
  }

  @Test
  void azurePermissionDenied() throws Exception {
    assertThat(call("/azure/403").fault()).isEqualTo(Fault.T7);
  }

  @Test
  void retryAfterAsHttpDate() throws Exception {
    Classification c = call("/503-date");
    assertThat(c.fault()).isEqualTo(Fault.T1);
    assertThat(c.retryAfterMillis()).isBetween(100_000L, 121_000L);
  }

  @Test
  void emptyBodyWhereOneWasExpected() throws Exception {
    Classification c = call("/empty", Duration.ofSeconds(5), true);
    assertThat(c.fault()).isEqualTo(Fault.T3);
    assertThat(c.confidence()).isLessThan(0.5);
  }

  @Test
  void contentFilteredAnswer() throws Exception {
    assertThat(call("/azure/filtered").fault()).isEqualTo(Fault.T8);
  }

  @Test
  @DisplayName("the server read the request and hung up: outcome unknown (T3)")
  void hangUpAfterTheRequestWasSent() throws Exception {
    Classification c = call("/hang-up");
    assertThat(c.fault()).isEqualTo(Fault.T3);
  }

  @Test
  void requestTimeout() throws Exception {
    Classification c = call("/slow", Duration.ofMillis(200), false);
    assertThat(c.fault()).isEqualTo(Fault.T3);
    assertThat(c.rule()).isEqualTo("exception.timeout");
  }

  @Test
  @DisplayName("connection refused: the request never left (T1)")
  void connectionRefused() throws Exception {
    int port;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = s.getLocalPort();
    }
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/")).timeout(Duration.ofSeconds(2))
        .GET().build();
    Classification c;
    try {
      client.send(request, HttpResponse.BodyHandlers.ofString());
      throw new AssertionError("nothing listens on port " + port);
    } catch (IOException e) {
      c = classifier.classify(Observation.of(e));
    }
    assertThat(c.fault()).isEqualTo(Fault.T1);
    assertThat(c.rule()).isEqualTo("exception.connect-refused");
  }

  @Test
  @DisplayName("a tool throwing HttpCallException.of(response) is classified by the response it carries")
  void httpCallExceptionFromARealResponse() throws Exception {
    HttpResponse<String> response = client.send(HttpRequest.newBuilder(uri("/anthropic/429")).build(),
        HttpResponse.BodyHandlers.ofString());
    HttpCallException e = HttpCallException.of(response);
    assertThat(e.getMessage()).isEqualTo("HTTP 429 from GET " + uri("/anthropic/429"));
    assertThat(e.header("Retry-After")).isEqualTo("17");
    Classification c = classifier.classify(Observation.of(new IllegalStateException("search failed", e)));
    assertThat(c.fault()).isEqualTo(Fault.T2);
    assertThat(c.retryAfterMillis()).isEqualTo(17_000);
  }
}
