package dev.hfr.runtime.internal.http;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A real HTTP server on 127.0.0.1 answering 429 with Retry-After on /busy and 200 elsewhere. */
class ObservedHttpClientsTest {

  record Seen(String target, int status, String retryAfter) {}

  HttpServer server;
  final List<Seen> seen = new CopyOnWriteArrayList<>();

  @BeforeEach
  void start() throws Exception {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext("/", exchange -> {
      boolean busy = exchange.getRequestURI().getPath().equals("/busy");
      if (busy) {
        exchange.getResponseHeaders().add("Retry-After", "7");
      }
      exchange.sendResponseHeaders(busy ? 429 : 200, -1);
      exchange.close();
    });
    server.start();
  }

  @AfterEach
  void stop() {
    server.stop(0);
  }

  HttpClient client() {
    return ObservedHttpClients.builder(HttpClient.newBuilder(), new FailedResponseListener<String>() {
      @Override
      public String onSend(HttpRequest request) {
        return request.headers().firstValue("x-call").orElse(null);
      }

      @Override
      public void onFailedResponse(String target, int status, HttpHeaders headers) {
        seen.add(new Seen(target, status, headers.firstValue("retry-after").orElse(null)));
      }
    }).build();
  }

  HttpRequest request(String path, String call) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path));
    if (call != null) {
      b.header("x-call", call);
    }
    return b.build();
  }

  @Test
  void aFailedResponsesStatusAndHeadersReachTheListenerWithItsRequestsTarget() throws Exception {
    HttpResponse<String> r = client().send(request("/busy", "call-1"), HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(429);
    assertThat(seen).containsExactly(new Seen("call-1", 429, "7"));
  }

  @Test
  void anAsynchronousSendIsObservedToo() throws Exception {
    client().sendAsync(request("/busy", "call-2"), HttpResponse.BodyHandlers.discarding()).get(10, TimeUnit.SECONDS);
    assertThat(seen).containsExactly(new Seen("call-2", 429, "7"));
  }

  @Test
  void successesAndRequestsWithoutATargetAreNotReported() throws Exception {
    client().send(request("/ok", "call-3"), HttpResponse.BodyHandlers.discarding());
    client().send(request("/busy", null), HttpResponse.BodyHandlers.discarding());
    assertThat(seen).isEmpty();
  }

  @Test
  void everySettingReachesTheJdkClient() {
    HttpClient c = ObservedHttpClients.builder(HttpClient.newBuilder(), new FailedResponseListener<Object>() {
      @Override public Object onSend(HttpRequest request) { return null; }
      @Override public void onFailedResponse(Object target, int status, HttpHeaders headers) {}
    }).version(HttpClient.Version.HTTP_1_1).connectTimeout(java.time.Duration.ofSeconds(3))
        .followRedirects(HttpClient.Redirect.NORMAL).build();
    assertThat(c.version()).isEqualTo(HttpClient.Version.HTTP_1_1);
    assertThat(c.connectTimeout()).contains(java.time.Duration.ofSeconds(3));
    assertThat(c.followRedirects()).isEqualTo(HttpClient.Redirect.NORMAL);
  }
}
