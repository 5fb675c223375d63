package dev.hfr.runtime.internal.engine;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real shop on 127.0.0.1 (the JDK's {@code com.sun.net.httpserver}) that keeps the truth the ledger tests
 * check against: payments deduplicated on their {@code Idempotency-Key} header (an R1 service), orders that
 * are created once per POST and can be looked up by reference (R2), refunds and cancellations (the
 * compensations), and mail (R3). Faults are injected per path, in order, on the wire: a 429 that applies
 * nothing, a 400 that applies nothing, and "commit, then hang past the client's timeout".
 *
 * <p>The client side ({@link #post}, {@link #get}) is the JDK {@link HttpClient}: a non-2xx answer throws
 * the classifier's {@link HttpCallException}, a hang throws {@link java.net.http.HttpTimeoutException}.
 */
final class ShopService implements AutoCloseable {

  /** One injected fault. */
  enum Fault {
    /** 429 with Retry-After: 0, nothing applied. */
    RATE_LIMITED,
    /** 400: a permanent input error, nothing applied. */
    BAD_REQUEST,
    /** The effect is applied, then the answer is held past the client's timeout. */
    COMMIT_THEN_HANG,
    /** The effect is applied, then the connection is closed without an answer (an outcome the client cannot know). */
    COMMIT_THEN_DROP,
    /** The connection is closed without an answer before anything is applied: the client cannot tell the two apart. */
    DROP
  }

  // 3 s, not 1 s: on a CI machine at load ~30 an ordinary request took over a second, a timeout no test scripted
  // (CompensationTest then saw COMPENSATION_UNKNOWN). A hang outlasts it by as much again.
  static final Duration CLIENT_TIMEOUT = Duration.ofMillis(3_000);
  private static final long HANG_MILLIS = 6_000;

  private final HttpServer server;
  private final ExecutorService executor = Executors.newFixedThreadPool(8);
  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final Map<String, Deque<Fault>> faults = new HashMap<>();
  private final AtomicInteger receipts = new AtomicInteger();
  /** Address → mails sent to it (an R3 write: each send is one more mail). */
  final Map<String, Integer> mailsByTo = new ConcurrentHashMap<>();
  private final AtomicInteger orderIds = new AtomicInteger();

  /** Idempotency key → receipt. */
  final Map<String, String> paymentsByKey = new ConcurrentHashMap<>();
  /** Payment reference → times a charge was applied (1 = once, however often it was sent). */
  final Map<String, Integer> chargesByRef = new ConcurrentHashMap<>();
  /** Payment reference → times it was refunded. */
  final Map<String, Integer> refundsByRef = new ConcurrentHashMap<>();
  /** Order reference → order ids created for it, counted. */
  final Map<String, Integer> ordersByRef = new ConcurrentHashMap<>();
  final Map<String, String> orderIdByRef = new ConcurrentHashMap<>();
  /** Order reference → times it was cancelled. */
  final Map<String, Integer> cancelsByRef = new ConcurrentHashMap<>();
  final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

  ShopService() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 32);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
    warmUp();
  }

  /**
   * One request before the tests' own: the JVM's first HTTP exchange loads and links the client's and the
   * server's classes, which on a loaded machine takes longer than the tools' {@link #CLIENT_TIMEOUT} —
   * a test would then see a timeout it did not script. It goes to a path no test counts.
   */
  private void warmUp() throws IOException {
    try {
      client.send(HttpRequest.newBuilder(uri("/warmup")).timeout(Duration.ofSeconds(30)).GET().build(),
          HttpResponse.BodyHandlers.discarding());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while warming up the shop", e);
    }
  }

  /** The next requests of {@code path} meet these faults, in order; later ones are served normally. */
  synchronized ShopService inject(String path, Fault... planned) {
    Deque<Fault> queue = faults.computeIfAbsent(path, p -> new ArrayDeque<>());
    for (Fault f : planned) {
      queue.add(f);
    }
    return this;
  }

  int requests(String path) {
    AtomicInteger n = requests.get(path);
    return n == null ? 0 : n.get();
  }

  private synchronized Fault nextFault(String path) {
    Deque<Fault> queue = faults.get(path);
    return queue == null ? null : queue.poll();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      requests.computeIfAbsent(path, p -> new AtomicInteger()).incrementAndGet();
      Map<String, String> form = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
      String query = exchange.getRequestURI().getRawQuery();
      Fault fault = nextFault(path);
      if (fault == Fault.RATE_LIMITED) {
        exchange.getResponseHeaders().add("Retry-After", "0");
        respond(exchange, 429, "{\"error\":{\"type\":\"rate_limit_exceeded\"}}");
        return;
      }
      if (fault == Fault.BAD_REQUEST) {
        respond(exchange, 400, "{\"error\":{\"type\":\"invalid_request\",\"message\":\"rejected\"}}");
        return;
      }
      if (fault == Fault.DROP) {
        throw new IllegalStateException("dropped before commit");
      }
      String answer;
      int status = 200;
      switch (path) {
        case "/payments": {
          String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
          if (key == null) {
            respond(exchange, 400, "{\"error\":{\"type\":\"invalid_request\",\"message\":\"Idempotency-Key required\"}}");
            return;
          }
          answer = paymentsByKey.computeIfAbsent(key, k -> {
            chargesByRef.merge(form.get("ref"), 1, Integer::sum);
            return "rcpt-" + receipts.incrementAndGet();
          });
          break;
        }
        case "/refunds":
          refundsByRef.merge(form.get("ref"), 1, Integer::sum);
          answer = "refunded " + form.get("ref");
          break;
        case "/orders":
          if ("GET".equals(exchange.getRequestMethod())) {
            String id = orderIdByRef.get(form(query == null ? "" : query).get("ref"));
            status = id == null ? 404 : 200;
            answer = id == null ? "{\"error\":{\"type\":\"not_found\"}}" : id;
          } else {
            String id = "ord-" + orderIds.incrementAndGet();
            ordersByRef.merge(form.get("ref"), 1, Integer::sum);
            orderIdByRef.put(form.get("ref"), id);
            answer = id;
          }
          break;
        case "/mail":
          mailsByTo.merge(form.get("to"), 1, Integer::sum);
          answer = "sent to " + form.get("to");
          break;
        case "/orders/cancel":
          cancelsByRef.merge(form.get("ref"), 1, Integer::sum);
          answer = "cancelled " + form.get("ref");
          break;
        default:
          status = 404;
          answer = "{\"error\":{\"type\":\"not_found\"}}";
      }
      if (fault == Fault.COMMIT_THEN_DROP) {
        // the effect is applied above; the server drops the connection on an exception, so the client gets no answer
        throw new IllegalStateException("dropped after commit");
      }
      if (fault == Fault.COMMIT_THEN_HANG) {
        try {
          Thread.sleep(HANG_MILLIS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
      respond(exchange, status, answer);
    } catch (IOException clientGone) {
      // The client timed out and closed the connection: expected after COMMIT_THEN_HANG.
    }
  }

  private static void respond(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Map<String, String> form(String text) {
    Map<String, String> out = new HashMap<>();
    for (String pair : text.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        out.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return out;
  }

  // ---- the client side the tools use -----------------------------------------------------------

  String post(String path, Map<String, String> form, String idempotencyKey) throws IOException, InterruptedException {
    StringBuilder body = new StringBuilder();
    form.forEach((k, v) -> body.append(body.length() == 0 ? "" : "&").append(k).append('=')
        .append(URLEncoder.encode(v, StandardCharsets.UTF_8)));
    HttpRequest.Builder request = HttpRequest.newBuilder(uri(path)).timeout(CLIENT_TIMEOUT)
        .POST(HttpRequest.BodyPublishers.ofString(body.toString()));
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    return send(request.build());
  }

  Optional<String> find(String path, String ref) throws IOException, InterruptedException {
    try {
      return Optional.of(send(HttpRequest.newBuilder(uri(path + "?ref=" + URLEncoder.encode(ref, StandardCharsets.UTF_8)))
          .timeout(CLIENT_TIMEOUT).GET().build()));
    } catch (HttpCallException e) {
      if (e.status() == 404) {
        return Optional.empty();
      }
      throw e;
    }
  }

  private URI uri(String pathAndQuery) {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + pathAndQuery);
  }

  private String send(HttpRequest request) throws IOException, InterruptedException {
    HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() / 100 != 2) {
      throw HttpCallException.of(response);
    }
    return response.body();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
