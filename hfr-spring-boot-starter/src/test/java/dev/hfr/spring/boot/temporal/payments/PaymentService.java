package dev.hfr.spring.boot.temporal.payments;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A payment provider on 127.0.0.1 over real HTTP: {@code POST /charges} charges an order once per {@code
 * Idempotency-Key} (a repeated key gets the first charge back) and can be told to drop its next answers after
 * committing the charge. It counts the charges it committed per order, so a test sees every duplicate.
 */
public final class PaymentService implements AutoCloseable {

  private final HttpServer server;
  private final AtomicInteger answersToDrop = new AtomicInteger();
  private final List<String> keys = new CopyOnWriteArrayList<>();
  private final Map<String, String> chargeByKey = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> chargesByOrder = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private PaymentService(HttpServer server) {
    this.server = server;
  }

  /** Starts the provider on a free port of 127.0.0.1. */
  public static PaymentService start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "payment-service");
      t.setDaemon(true);
      return t;
    }));
    PaymentService payments = new PaymentService(server);
    server.createContext("/charges", payments::charge);
    server.start();
    return payments;
  }

  /** Where the provider listens. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The next {@code n} charges are committed, then their connection is closed without an answer. */
  public void dropNextAnswers(int n) {
    answersToDrop.set(n);
  }

  /** The idempotency key of every charge request received, in order. */
  public List<String> keys() {
    return List.copyOf(keys);
  }

  /** Charges committed for an order; more than one is a duplicate. */
  public int charges(String order) {
    AtomicInteger n = chargesByOrder.get(order);
    return n == null ? 0 : n.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void charge(HttpExchange exchange) throws IOException {
    String order = form(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8)).get("order");
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    if (key == null || order == null) {
      respond(exchange, 400, "order and Idempotency-Key required");
      return;
    }
    keys.add(key);
    String charge = chargeByKey.computeIfAbsent(key, k -> {
      chargesByOrder.computeIfAbsent(order, o -> new AtomicInteger()).incrementAndGet();
      return "charge-" + ids.incrementAndGet();
    });
    if (answersToDrop.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      exchange.close();   // committed above; the caller cannot know
      return;
    }
    respond(exchange, 200, charge);
  }

  private static Map<String, String> form(String body) {
    Map<String, String> values = new ConcurrentHashMap<>();
    for (String pair : body.split("&")) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        values.put(URLDecoder.decode(pair.substring(0, eq), StandardCharsets.UTF_8),
            URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
      }
    }
    return values;
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
