package dev.hfr.samples.langchain4j;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The shop's backend on 127.0.0.1: stock levels, and orders that are really stored. It can be told to
 * lose the answer of the next order after committing it (the write happened, the client times out), and
 * its stock endpoint can be switched to answer 503.
 */
final class OrderService implements AutoCloseable {

  /** One stored order. */
  record Order(String id, String sku, int quantity) {}

  private final HttpServer server;
  private final ExecutorService executor;
  private final List<Order> orders = new ArrayList<>();
  private final Map<String, Integer> stock = new HashMap<>(Map.of("SKU-42", 17, "SKU-7", 3));
  private final AtomicBoolean dropNextOrderAnswer = new AtomicBoolean();
  private final AtomicBoolean stockDown = new AtomicBoolean();

  private OrderService(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  static OrderService start() throws IOException {
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "order-service");
      t.setDaemon(true);
      return t;
    });
    OrderService s = new OrderService(http, executor);
    http.createContext("/stock", s::stock);
    http.createContext("/orders", s::orders);
    http.setExecutor(executor);
    http.start();
    return s;
  }

  URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** The next order is committed, but its answer comes too late for the client. */
  void dropNextOrderAnswer() {
    dropNextOrderAnswer.set(true);
  }

  void stockDown(boolean down) {
    stockDown.set(down);
  }

  synchronized List<Order> orders() {
    return List.copyOf(orders);
  }

  private void stock(HttpExchange ex) throws IOException {
    try (ex) {
      if (stockDown.get()) {
        send(ex, 503, "{\"error\":{\"code\":\"service_unavailable\",\"message\":\"stock database is down\"}}");
        return;
      }
      String sku = query(ex).getOrDefault("sku", "");
      Integer units = stock.get(sku);
      send(ex, units == null ? 404 : 200, units == null
          ? "{\"error\":{\"code\":\"unknown_sku\",\"message\":\"no such product\"}}"
          : "{\"sku\":\"" + sku + "\",\"units\":" + units + "}");
    }
  }

  private void orders(HttpExchange ex) throws IOException {
    try (ex) {
      Map<String, String> q = query(ex);
      String sku = q.getOrDefault("sku", "");
      int quantity = Integer.parseInt(q.getOrDefault("quantity", "0"));
      if ("GET".equals(ex.getRequestMethod())) {
        Order found = find(sku, quantity);
        send(ex, found == null ? 404 : 200, found == null ? "{\"error\":{\"code\":\"not_found\"}}" : json(found));
        return;
      }
      Order created;
      synchronized (this) {
        created = new Order("ORD-" + (1001 + orders.size()), sku, quantity);
        orders.add(created);
      }
      if (dropNextOrderAnswer.getAndSet(false)) {
        sleep(1500); // committed above; the answer arrives after the client gave up
      }
      send(ex, 201, json(created));
    }
  }

  private synchronized Order find(String sku, int quantity) {
    return orders.stream().filter(o -> o.sku().equals(sku) && o.quantity() == quantity).findFirst().orElse(null);
  }

  private static String json(Order o) {
    return "{\"id\":\"" + o.id() + "\",\"sku\":\"" + o.sku() + "\",\"quantity\":" + o.quantity() + "}";
  }

  private static Map<String, String> query(HttpExchange ex) {
    Map<String, String> out = new HashMap<>();
    String raw = ex.getRequestURI().getRawQuery();
    if (raw != null) {
      for (String pair : raw.split("&")) {
        int eq = pair.indexOf('=');
        if (eq > 0) {
          out.put(pair.substring(0, eq), URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    return out;
  }

  private static void send(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("content-type", "application/json");
    try {
      ex.sendResponseHeaders(status, bytes.length);
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    } catch (IOException clientGone) {
      // the client timed out first: the order stays committed, nobody hears about it
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
    try {
      executor.awaitTermination(5, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
