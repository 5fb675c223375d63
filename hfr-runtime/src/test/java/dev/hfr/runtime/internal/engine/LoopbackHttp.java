package dev.hfr.runtime.internal.engine;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 (the JDK's {@code com.sun.net.httpserver}) whose paths answer with
 * scripted responses — real 429s with Retry-After, 503s, 529 {@code overloaded_error}s, 400
 * {@code context_length_exceeded}s, 403s, and responses that hang past the client's timeout — and the
 * client side the test tools use: the JDK {@link HttpClient}, throwing the classifier's
 * {@link HttpCallException} for any non-2xx answer.
 */
final class LoopbackHttp implements AutoCloseable {

  /** One scripted answer. */
  record Answer(int status, Map<String, String> headers, String body, long delayMillis) {
    static Answer ok(String body) {
      return new Answer(200, Map.of(), body, 0);
    }

    static Answer status(int status, String body) {
      return new Answer(status, Map.of(), body, 0);
    }

    static Answer status(int status, String header, String value, String body) {
      return new Answer(status, Map.of(header, value), body, 0);
    }

    static Answer hang(long millis, String body) {
      return new Answer(200, Map.of(), body, millis);
    }
  }

  /** Chooses the answer to request number {@code n} (1-based) of a path with the request's body. */
  @FunctionalInterface
  interface Script {
    Answer answer(int n, String requestBody, String query);
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(16);
  private final Map<String, AtomicInteger> hits = new ConcurrentHashMap<>();
  final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(2)).build();

  LoopbackHttp() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.setExecutor(executor);
    server.start();
  }

  /** A server on a free port of 127.0.0.1. */
  static LoopbackHttp start() {
    try {
      return new LoopbackHttp();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Sends one request first: the JVM's first HTTP exchange loads and links the client and server classes,
   * which on a loaded machine can take longer than the short timeouts the tests give their tools.
   */
  void warmUp() throws IOException, InterruptedException {
    if (hits.containsKey("/warmup")) {
      return;
    }
    route("/warmup", (n, body, q) -> Answer.ok("{}"));
    get("/warmup", Duration.ofSeconds(30));
  }

  /** Serves {@code path} with {@code script}. */
  LoopbackHttp route(String path, Script script) {
    AtomicInteger count = hits.computeIfAbsent(path, p -> new AtomicInteger());
    server.createContext(path, exchange -> handle(exchange, script.answer(count.incrementAndGet(),
        new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8), exchange.getRequestURI().getQuery())));
    return this;
  }

  /** How many requests {@code path} received. */
  int hits(String path) {
    AtomicInteger n = hits.get(path);
    return n == null ? 0 : n.get();
  }

  URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery);
  }

  /** GET with a timeout; a non-2xx answer throws {@link HttpCallException}. */
  String get(String pathAndQuery, Duration timeout) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(pathAndQuery)).timeout(timeout).GET().build());
  }

  /** POST with a timeout; a non-2xx answer throws {@link HttpCallException}. */
  String post(String path, String body, Duration timeout) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(uri(path)).timeout(timeout).POST(HttpRequest.BodyPublishers.ofString(body)).build());
  }

  private String send(HttpRequest request) throws IOException, InterruptedException {
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw HttpCallException.of(response);
    }
    return response.body();
  }

  private static void handle(HttpExchange exchange, Answer a) throws IOException {
    try (exchange) {
      if (a.delayMillis() > 0) {
        try {
          Thread.sleep(a.delayMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      a.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      byte[] body = a.body().getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(a.status(), body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(body);
        }
      }
    } catch (IOException clientGone) {
      // The client timed out and closed the connection: expected for the hanging answers.
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
