package dev.hfr.samples.ownership;

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
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real order service on 127.0.0.1 and the tests' ground truth: it counts every order placed per ref
 * and every charge made per ref (a charge's key is honoured: the same key charges once). Each write
 * takes {@code writeMillis}, so racing workers overlap inside the call.
 */
final class OrderService implements AutoCloseable {

  private final HttpServer server;
  private final long writeMillis;
  private final Map<String, AtomicInteger> orders = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
  private final Map<String, String> chargeByKey = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();
  private final AtomicInteger writes = new AtomicInteger();

  OrderService(long writeMillis) throws IOException {
    this.writeMillis = writeMillis;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 256);
    server.setExecutor(Executors.newFixedThreadPool(16, r -> {
      Thread t = new Thread(r, "order-service");
      t.setDaemon(true);
      return t;
    }));
    server.createContext("/", this::handle);
    server.start();
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
  }

  int port() {
    return server.getAddress().getPort();
  }

  /** Orders placed per ref. */
  Map<String, Integer> orders() {
    return counts(orders);
  }

  /** Charges made per ref (a repeated key does not count). */
  Map<String, Integer> charges() {
    return counts(charges);
  }

  /** Write requests received, repeats included. */
  int writes() {
    return writes.get();
  }

  private static Map<String, Integer> counts(Map<String, AtomicInteger> m) {
    Map<String, Integer> out = new HashMap<>();
    m.forEach((k, v) -> out.put(k, v.get()));
    return out;
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      Map<String, String> q = new HashMap<>();
      String raw = exchange.getRequestURI().getRawQuery();
      for (String pair : raw == null ? new String[0] : raw.split("&")) {
        String[] kv = pair.split("=", 2);
        q.put(kv[0], URLDecoder.decode(kv[1], StandardCharsets.UTF_8));
      }
      String path = exchange.getRequestURI().getPath();
      boolean post = exchange.getRequestMethod().equals("POST");
      String ref = q.get("ref");
      int status = 200;
      String body;
      if (post) {
        writes.incrementAndGet();
        pause();
      }
      switch (path) {
        case "/orders" -> {
          if (post) {
            orders.computeIfAbsent(ref, k -> new AtomicInteger()).incrementAndGet();
            body = "order-" + ids.incrementAndGet() + ":" + ref;
          } else {
            AtomicInteger n = orders.get(ref);
            status = n == null ? 404 : 200;
            body = n == null ? "" : "order:" + ref;
          }
        }
        case "/charges" -> {
          String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
          body = chargeByKey.computeIfAbsent(key, k -> {
            charges.computeIfAbsent(ref, r -> new AtomicInteger()).incrementAndGet();
            return "charge-" + ids.incrementAndGet() + ":" + ref;
          });
        }
        case "/stock" -> body = "12";
        default -> {
          status = 404;
          body = "";
        }
      }
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
      if (bytes.length > 0) {
        try (OutputStream out = exchange.getResponseBody()) {
          out.write(bytes);
        }
      }
    }
  }

  private void pause() {
    if (writeMillis > 0) {
      try {
        Thread.sleep(writeMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
