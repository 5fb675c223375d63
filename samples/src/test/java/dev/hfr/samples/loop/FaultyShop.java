package dev.hfr.samples.loop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real shop service on 127.0.0.1, faulty the way the services were, and the test's ground truth:
 * it counts every order placed per ref, every charge applied per ref (one per idempotency key) and every
 * receipt sent per address. Each write request draws its fault from a seeded generator: none, 503 or 429
 * (with Retry-After) before anything is applied, the answer dropped or too slow after the write was applied,
 * or too slow without applying it. Reads of orders fail with 503 now and then.
 *
 * <p>Requests are handled one at a time in arrival order (slow answers are sent later from a timer), so a
 * reconcile that follows a write sees it: the test counts what HFR does, not a race inside the service.
 */
final class FaultyShop implements AutoCloseable {

  /** What one request suffers. */
  enum Fault { NONE, UNAVAILABLE, RATE_LIMITED, DROPPED_AFTER_COMMIT, SLOW_AFTER_COMMIT, SLOW_NOT_APPLIED }

  /** Past the client's answer timeout, so a slow answer is a timeout there. */
  private static final long SLOW_MILLIS = LoopShop.ANSWER_TIMEOUT.toMillis() + 150;

  private final HttpServer server;
  private final ExecutorService handler;
  private final ScheduledExecutorService later;
  private final Random random;
  private final double faultRate;
  private final Map<String, AtomicInteger> orders = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> receipts = new ConcurrentHashMap<>();
  private final Map<String, String> chargeByKey = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  FaultyShop(long seed, double faultRate) throws IOException {
    this.random = new Random(seed);
    this.faultRate = faultRate;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64);
    handler = Executors.newSingleThreadExecutor(r -> daemon(r, "faulty-shop"));
    later = Executors.newSingleThreadScheduledExecutor(r -> daemon(r, "faulty-shop-slow-answers"));
    server.setExecutor(handler);
    server.createContext("/", this::handle);
    server.start();
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  /** How often each distinct write was applied: orders per ref, charges per ref, receipts per address. */
  Map<String, Integer> applications() {
    Map<String, Integer> out = new HashMap<>();
    orders.forEach((k, v) -> out.put("order:" + k, v.get()));
    charges.forEach((k, v) -> out.put("charge:" + k, v.get()));
    receipts.forEach((k, v) -> out.put("receipt:" + k, v.get()));
    return out;
  }

  private synchronized Fault draw(boolean write) {
    if (random.nextDouble() >= faultRate) {
      return Fault.NONE;
    }
    if (!write) {
      return Fault.UNAVAILABLE;
    }
    Fault[] faults = Fault.values();
    return faults[1 + random.nextInt(faults.length - 1)];
  }

  private void handle(HttpExchange exchange) throws IOException {
    Map<String, String> q = new HashMap<>();
    String raw = exchange.getRequestURI().getRawQuery();
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      String[] kv = pair.split("=", 2);
      q.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
    }
    boolean post = exchange.getRequestMethod().equals("POST");
    Fault fault = draw(post);
    switch (fault) {
      case UNAVAILABLE -> answer(exchange, 503, "{\"error\":{\"type\":\"service_unavailable\"}}", null);
      case RATE_LIMITED -> answer(exchange, 429, "{\"error\":{\"type\":\"rate_limited\"}}", "0");
      case SLOW_NOT_APPLIED -> later.schedule(exchange::close, SLOW_MILLIS, TimeUnit.MILLISECONDS);
      case DROPPED_AFTER_COMMIT -> {
        apply(exchange, q);
        exchange.close(); // closed without an answer: the client sees the connection end
      }
      case SLOW_AFTER_COMMIT -> {
        String body = apply(exchange, q);
        later.schedule(() -> answer(exchange, 200, body, null), SLOW_MILLIS, TimeUnit.MILLISECONDS);
      }
      default -> {
        String body = post ? apply(exchange, q) : find(q.get("ref"));
        answer(exchange, body.isEmpty() ? 404 : 200, body, null);
      }
    }
  }

  private String apply(HttpExchange exchange, Map<String, String> q) {
    switch (exchange.getRequestURI().getPath()) {
      case "/orders":
        orders.computeIfAbsent(q.get("ref"), k -> new AtomicInteger()).incrementAndGet();
        return "order-" + ids.incrementAndGet() + ":" + q.get("ref");
      case "/charges":
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        return chargeByKey.computeIfAbsent(key == null ? "none-" + ids.incrementAndGet() : key, k -> {
          charges.computeIfAbsent(q.get("ref"), r -> new AtomicInteger()).incrementAndGet();
          return "charge-" + ids.incrementAndGet() + ":" + q.get("ref");
        });
      case "/receipts":
        receipts.computeIfAbsent(q.get("to"), k -> new AtomicInteger()).incrementAndGet();
        return "receipt-" + ids.incrementAndGet() + ":" + q.get("to");
      default:
        return "";
    }
  }

  private String find(String ref) {
    AtomicInteger n = ref == null ? null : orders.get(ref);
    return n == null ? "" : "order:" + ref;
  }

  private static void answer(HttpExchange exchange, int status, String body, String retryAfter) {
    try (exchange) {
      if (retryAfter != null) {
        exchange.getResponseHeaders().add("Retry-After", retryAfter);
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    } catch (IOException clientGone) {
      // A client that timed out closed its end: the write stands, the answer is lost.
    }
  }

  @Override
  public void close() {
    server.stop(0);
    later.shutdownNow();
    handler.shutdownNow();
    try {
      handler.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
