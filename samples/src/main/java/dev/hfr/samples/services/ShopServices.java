package dev.hfr.samples.services;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The shop's back-end services on 127.0.0.1, over real HTTP ({@code com.sun.net.httpserver}): a search
 * service and its mirror, payments (deduplicated by {@code Idempotency-Key}), orders (queryable by the
 * customer's reference) and e-mail. Faults are planned per route and injected on the wire; every request
 * and what the service did with it is logged, so a demo or a test can see what really happened.
 *
 * <p>Responses are plain text, one record per line, fields separated by {@code |}.
 */
public final class ShopServices implements AutoCloseable {

  private static final Map<String, String> PRODUCTS = Map.of(
      "lamp", "sku-lamp|Desk lamp|2900",
      "desk", "sku-desk|Standing desk|41900",
      "chair", "sku-chair|Office chair|18900");

  private final HttpServer server;
  private final ExecutorService executor;
  private final Map<String, Deque<InjectedFault>> faults = new ConcurrentHashMap<>();
  private final List<String> log = Collections.synchronizedList(new ArrayList<>());
  private final Map<String, String> payments = new ConcurrentHashMap<>();
  private final Map<String, String> orders = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private ShopServices(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Starts the services on a free port of 127.0.0.1. */
  public static ShopServices start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    ExecutorService executor = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "shop-services");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    ShopServices services = new ShopServices(server, executor);
    server.createContext("/", services::handle);
    server.start();
    return services;
  }

  /** Where the services listen, e.g. {@code http://127.0.0.1:41234}. */
  public URI baseUri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /**
   * Plans faults for the next requests of a route ({@code "GET /search"}, {@code "POST /orders"}): the
   * first request gets the first fault, and so on; once they are used up, requests are served normally.
   */
  public void plan(String route, InjectedFault... planned) {
    Deque<InjectedFault> queue = faults.computeIfAbsent(route, r -> new ArrayDeque<>());
    synchronized (queue) {
      Collections.addAll(queue, planned);
    }
  }

  /** Everything the services did, in order, one line per request. */
  public List<String> log() {
    synchronized (log) {
      return List.copyOf(log);
    }
  }

  /** How many orders were committed (a duplicate write would show here). */
  public int committedOrders() {
    return orders.size();
  }

  /** How many distinct payments were committed. */
  public int committedPayments() {
    return payments.size();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
      String request = route + describe(exchange);
      Map<String, String> form = form(exchange);
      InjectedFault fault = nextFault(route);
      if (fault instanceof InjectedFault.Status status) {
        log.add(request + " -> " + status.code() + " (injected)");
        status.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
        respond(exchange, status.code(), status.body());
        return;
      }
      Response response = serve(route, exchange, form);
      if (fault instanceof InjectedFault.CommitThenStall stall) {
        log.add(request + " -> " + response.code() + " " + firstField(response.body())
            + " committed, answer held " + stall.hold().toMillis() + " ms (injected)");
        sleep(stall.hold().toMillis());
      } else {
        log.add(request + " -> " + response.code() + (response.code() < 300 ? " " + firstField(response.body()) : ""));
      }
      try {
        respond(exchange, response.code(), response.body());
      } catch (IOException clientGone) {
        // The client stopped waiting (a stalled answer): the write stays committed.
      }
    }
  }

  private record Response(int code, String body) {}

  private Response serve(String route, HttpExchange exchange, Map<String, String> form) {
    Map<String, String> query = query(exchange.getRequestURI());
    switch (route) {
      case "GET /search":
      case "GET /mirror/search": {
        String product = PRODUCTS.get(query.getOrDefault("q", ""));
        return new Response(200, product == null ? "" : product + "\n");
      }
      case "POST /payments": {
        String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
        if (key == null || key.isBlank()) {
          return new Response(400, "Idempotency-Key header required");
        }
        // One payment per key: a resend with the same key gets the committed receipt back.
        String receipt = payments.computeIfAbsent(key,
            k -> "rcpt-" + ids.incrementAndGet() + "|" + form.get("orderId") + "|" + form.get("amountCents"));
        return new Response(200, receipt + "\n");
      }
      case "POST /orders": {
        String ref = form.getOrDefault("ref", "");
        String order = "ord-" + ids.incrementAndGet() + "|" + ref + "|" + form.get("sku") + "|" + form.get("quantity");
        orders.put(order.substring(0, order.indexOf('|')), order);
        return new Response(201, order + "\n");
      }
      case "GET /orders": {
        String ref = query.getOrDefault("ref", "");
        return orders.values().stream()
            .filter(o -> o.split("\\|")[1].equals(ref))
            .findFirst()
            .map(o -> new Response(200, o + "\n"))
            .orElse(new Response(404, "no order for " + ref));
      }
      case "POST /emails":
        return new Response(202, "msg-" + ids.incrementAndGet() + "\n");
      default:
        return new Response(404, "no such route " + route);
    }
  }

  private InjectedFault nextFault(String route) {
    Deque<InjectedFault> queue = faults.get(route);
    if (queue == null) {
      return null;
    }
    synchronized (queue) {
      return queue.pollFirst();
    }
  }

  private static String describe(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    String key = exchange.getRequestHeaders().getFirst("Idempotency-Key");
    return (query == null ? "" : "?" + query) + (key == null ? "" : " [Idempotency-Key " + abbreviate(key) + "]");
  }

  private static String abbreviate(String key) {
    return key.length() <= 12 ? key : key.substring(0, 12) + "…";
  }

  private static String firstField(String body) {
    String line = body.strip();
    int bar = line.indexOf('|');
    return bar < 0 ? line : line.substring(0, bar);
  }

  private static Map<String, String> form(HttpExchange exchange) throws IOException {
    String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
    return parse(body);
  }

  private static Map<String, String> query(URI uri) {
    return parse(uri.getRawQuery());
  }

  private static Map<String, String> parse(String encoded) {
    Map<String, String> values = new LinkedHashMap<>();
    if (encoded == null || encoded.isEmpty()) {
      return values;
    }
    for (String pair : encoded.split("&")) {
      int eq = pair.indexOf('=');
      String name = eq < 0 ? pair : pair.substring(0, eq);
      String value = eq < 0 ? "" : pair.substring(eq + 1);
      values.put(URLDecoder.decode(name, StandardCharsets.UTF_8), URLDecoder.decode(value, StandardCharsets.UTF_8));
    }
    return values;
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "text/plain; charset=utf-8");
    exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    }
  }

  private static void sleep(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
