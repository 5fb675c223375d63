package dev.hfr.agent.it;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server on 127.0.0.1 answering the failures the agent has to tell apart, one path each:
 * {@code /ok} 200, {@code /rate} 429 with {@code Retry-After: 1}, {@code /error} 500,
 * {@code /unavailable} 503, {@code /overloaded} 529 with an {@code overloaded_error} body,
 * {@code /context} 400 with {@code context_length_exceeded}, {@code /unauthorized} 401,
 * {@code /forbidden} 403, {@code /hang} no answer for 10 s (past every client's timeout);
 * {@code /flaky} 503 twice then 200, {@code /write} and {@code /keyed-write} always 503;
 * {@code /anthropic-rate} 429 once with {@code anthropic-ratelimit-requests-reset} {@value #RESET_MILLIS} ms ahead, then
 * 200; {@code /openai-rate} 429 once with {@code x-ratelimit-remaining-requests: 0} and
 * {@code x-ratelimit-reset-requests: }{@value #RESET_MILLIS}{@code ms}, then 200; {@code /ms-rate} 429 once with
 * {@code retry-after-ms: }{@value #RESET_MILLIS}, then 200; {@code /tokens-rate} 429 once with
 * {@code x-ratelimit-remaining-tokens: 0} and {@code x-ratelimit-reset-tokens: }{@value #RESET_MILLIS}{@code ms}, then
 * 200. A path's first segment picks the answer
 * ({@code /flaky/okhttp} is a {@code /flaky} of its own); the requests are counted per whole path.
 */
final class FaultServer implements AutoCloseable {

  static final String OVERLOADED_BODY = "{\"type\":\"error\",\"error\":{\"type\":\"overloaded_error\",\"message\":\"Overloaded\"}}";
  static final String CONTEXT_BODY =
      "{\"error\":{\"message\":\"This model's maximum context length is 8192 tokens.\",\"type\":\"invalid_request_error\",\"code\":\"context_length_exceeded\"}}";

  /** How far ahead the rate-limit resets of the {@code -rate} paths other than {@code /rate} lie. */
  static final int RESET_MILLIS = 600;

  private final HttpServer server;
  private final ExecutorService handlers = Executors.newCachedThreadPool(r -> {
    Thread t = new Thread(r, "fault-server");
    t.setDaemon(true);
    return t;
  });
  private final Map<String, AtomicInteger> counts = new ConcurrentHashMap<>();

  FaultServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    server.createContext("/", this::handle);
    server.setExecutor(handlers);
    server.start();
  }

  /** {@code http://127.0.0.1:PORT} */
  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** How many requests reached {@code path}. */
  int count(String path) {
    AtomicInteger n = counts.get(path);
    return n == null ? 0 : n.get();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      exchange.getRequestBody().readAllBytes();
      int n = counts.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
      int second = path.indexOf('/', 1);
      switch (second < 0 ? path : path.substring(0, second)) {
        case "/ok" -> respond(exchange, 200, "ok");
        case "/rate" -> {
          exchange.getResponseHeaders().set("Retry-After", "1");
          respond(exchange, 429, "slow down");
        }
        case "/error" -> respond(exchange, 500, "internal error");
        case "/unavailable" -> respond(exchange, 503, "unavailable");
        case "/overloaded" -> respond(exchange, 529, OVERLOADED_BODY);
        case "/context" -> respond(exchange, 400, CONTEXT_BODY);
        case "/unauthorized" -> respond(exchange, 401, "who are you");
        case "/forbidden" -> respond(exchange, 403, "not for you");
        case "/hang" -> {
          try {
            TimeUnit.SECONDS.sleep(10);
          } catch (InterruptedException e) {
            return; // the server is closing
          }
          respond(exchange, 200, "too late");
        }
        case "/flaky" -> respond(exchange, n <= 2 ? 503 : 200, n <= 2 ? "unavailable" : "ok after " + n);
        case "/write", "/keyed-write" -> respond(exchange, 503, "unavailable");
        case "/anthropic-rate" ->
            limitedOnce(exchange, n, "anthropic-ratelimit-requests-reset", Instant.now().plusMillis(RESET_MILLIS).toString());
        case "/openai-rate" ->
            limitedOnce(exchange, n, "x-ratelimit-remaining-requests", "0", "x-ratelimit-reset-requests", RESET_MILLIS + "ms");
        case "/ms-rate" -> limitedOnce(exchange, n, "retry-after-ms", String.valueOf(RESET_MILLIS));
        case "/tokens-rate" ->
            limitedOnce(exchange, n, "x-ratelimit-remaining-tokens", "0", "x-ratelimit-reset-tokens", RESET_MILLIS + "ms");
        default -> respond(exchange, 404, "no such path");
      }
    }
  }

  /** The {@code n}th request of a rate-limited path: the first is a 429 with the given headers (name, value...), then 200. */
  private static void limitedOnce(HttpExchange exchange, int n, String... headers) throws IOException {
    if (n == 1) {
      for (int i = 0; i < headers.length; i += 2) {
        exchange.getResponseHeaders().set(headers[i], headers[i + 1]);
      }
      respond(exchange, 429, "slow down");
    } else {
      respond(exchange, 200, "ok after " + n);
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() {
    server.stop(0);
    handlers.shutdownNow();
  }
}
