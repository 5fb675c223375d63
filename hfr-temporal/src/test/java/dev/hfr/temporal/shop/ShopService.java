package dev.hfr.temporal.shop;

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
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A shop on 127.0.0.1 over real HTTP: orders (found again by reference), charges (deduplicated by {@code
 * Idempotency-Key}), e-mails and quotes. Each route answers its scripted faults first, in order; it counts what
 * it committed, so a test sees every duplicate, and it notes when each request came.
 */
public final class ShopService implements AutoCloseable {

  /** What a route does instead of answering normally. */
  public sealed interface Fault {}

  /** Commits the write, then closes the connection without an answer: the caller cannot know it happened. */
  public record DropAfterCommit() implements Fault {}

  /** Answers this status, headers and body without doing anything. */
  public record Status(int code, Map<String, String> headers, String body) implements Fault {}

  private final HttpServer server;
  private final Map<String, Deque<Fault>> faults = new ConcurrentHashMap<>();
  private final Map<String, List<Long>> requests = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> orders = new ConcurrentHashMap<>();
  private final Map<String, String> charges = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> emails = new ConcurrentHashMap<>();
  private final AtomicInteger ids = new AtomicInteger();

  private ShopService(HttpServer server) {
    this.server = server;
  }

  /** Starts the shop on a free port of 127.0.0.1. */
  public static ShopService start() throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "shop-service");
      t.setDaemon(true);
      return t;
    }));
    ShopService shop = new ShopService(server);
    server.createContext("/", shop::handle);
    server.start();
    return shop;
  }

  /** Where the shop listens. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Scripts the next requests of a route, e.g. {@code "POST /orders"}. */
  public void script(String route, Fault... next) {
    Deque<Fault> queue = faults.computeIfAbsent(route, r -> new ArrayDeque<>());
    synchronized (queue) {
      queue.addAll(List.of(next));
    }
  }

  /** Requests a route received. */
  public int requests(String route) {
    return times(route).size();
  }

  /** When each request of a route arrived ({@code System.nanoTime()}), in order. */
  public List<Long> times(String route) {
    List<Long> times = requests.getOrDefault(route, List.of());
    synchronized (times) {
      return List.copyOf(times);
    }
  }

  /** Orders committed under a reference (more than one is a duplicate). */
  public int orders(String ref) {
    AtomicInteger n = orders.get(ref);
    return n == null ? 0 : n.get();
  }

  /** Distinct charges committed (one per idempotency key). */
  public int charges() {
    return charges.size();
  }

  /** E-mails sent under a reference. */
  public int emails(String ref) {
    AtomicInteger n = emails.get(ref);
    return n == null ? 0 : n.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  private void handle(HttpExchange exchange) throws IOException {
    String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
    requests.computeIfAbsent(route, r -> new ArrayList<>());
    List<Long> times = requests.get(route);
    synchronized (times) {
      times.add(System.nanoTime());
    }
    Map<String, String> form = parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    form.putAll(parse(exchange.getRequestURI().getRawQuery()));
    Fault fault = next(route);
    if (fault instanceof Status status) {
      status.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      respond(exchange, status.code(), status.body());
      return;
    }
    String[] answer = serve(route, form, exchange.getRequestHeaders().getFirst("Idempotency-Key"));
    if (fault instanceof DropAfterCommit) {
      exchange.close();   // committed above; the caller gets no answer
      return;
    }
    respond(exchange, Integer.parseInt(answer[0]), answer[1]);
  }

  private String[] serve(String route, Map<String, String> form, String key) {
    String ref = form.getOrDefault("ref", "");
    switch (route) {
      case "POST /orders":
        orders.computeIfAbsent(ref, r -> new AtomicInteger()).incrementAndGet();
        return new String[] {"201", "order-" + ref};
      case "GET /orders":
        return orders(ref) > 0 ? new String[] {"200", "order-" + ref} : new String[] {"404", "no order " + ref};
      case "POST /charges":
        if (key == null) {
          return new String[] {"400", "Idempotency-Key required"};
        }
        return new String[] {"200", charges.computeIfAbsent(key, k -> "charge-" + ids.incrementAndGet())};
      case "POST /emails":
        emails.computeIfAbsent(ref, r -> new AtomicInteger()).incrementAndGet();
        return new String[] {"202", "mail-" + ref};
      case "GET /quote":
        return new String[] {"200", "quote-" + form.getOrDefault("sku", "")};
      default:
        return new String[] {"404", "no route " + route};
    }
  }

  private Fault next(String route) {
    Deque<Fault> queue = faults.get(route);
    if (queue == null) {
      return null;
    }
    synchronized (queue) {
      return queue.pollFirst();
    }
  }

  private static Map<String, String> parse(String encoded) {
    Map<String, String> values = new LinkedHashMap<>();
    if (encoded == null || encoded.isEmpty()) {
      return values;
    }
    for (String pair : encoded.split("&")) {
      int eq = pair.indexOf('=');
      values.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
          eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
    }
    return values;
  }

  private static void respond(HttpExchange exchange, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.sendResponseHeaders(code, bytes.length == 0 ? -1 : bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
