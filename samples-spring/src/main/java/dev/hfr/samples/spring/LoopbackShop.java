package dev.hfr.samples.spring;

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
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The shop's backend services on 127.0.0.1 — catalogue, orders, payments, mail — each a real HTTP endpoint that
 * really records what it did, and that fails a share of the requests it gets, in three equal parts: the effect is
 * stored and then the connection drops before the answer leaves; 503 before doing anything; 429 with {@code
 * Retry-After: 1} before doing anything. A request with an {@code Idempotency-Key} already seen gets the first answer
 * again and does nothing. {@code GET /orders?reference=} answers whether an order exists ({@code {"found": ...}}),
 * for reconciling. Every effect is counted per business reference, so a second order, charge or e-mail for the
 * same reference is a duplicate.
 */
public final class LoopbackShop implements AutoCloseable {

  /** The services, as their path and the name the counts are reported under. */
  public enum Service { ORDERS, PAYMENTS, MAIL }

  private final HttpServer server;
  private final ExecutorService executor;
  private final double faultRate;
  private final Random random;
  private final Map<Service, Map<String, Integer>> effects = new HashMap<>();
  private final Map<String, String> answersByKey = new HashMap<>();
  private int requests;
  private int faults;

  private LoopbackShop(HttpServer server, ExecutorService executor, double faultRate, long seed) {
    this.server = server;
    this.executor = executor;
    this.faultRate = faultRate;
    this.random = new Random(seed);
    for (Service s : Service.values()) {
      effects.put(s, new HashMap<>());
    }
  }

  /**
   * Starts the services on an ephemeral loopback port.
   *
   * @param faultRate the share of requests that fail, 0..1
   * @param seed the seed of the fault draws, so a run can be repeated exactly
   */
  public static LoopbackShop start(double faultRate, long seed) {
    if (faultRate < 0 || faultRate > 1) {
      throw new IllegalArgumentException("shop.fault-rate must be within 0..1, was " + faultRate);
    }
    try {
      HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 32);
      ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "loopback-shop");
        t.setDaemon(true);
        return t;
      });
      LoopbackShop shop = new LoopbackShop(http, executor, faultRate, seed);
      http.createContext("/catalog", shop::catalog);
      http.createContext("/orders", ex -> {
        if ("GET".equals(ex.getRequestMethod())) {
          shop.findOrder(ex);
        } else {
          shop.write(ex, Service.ORDERS);
        }
      });
      http.createContext("/payments", ex -> shop.write(ex, Service.PAYMENTS));
      http.createContext("/mail", ex -> shop.write(ex, Service.MAIL));
      http.setExecutor(executor);
      http.start();
      return shop;
    } catch (IOException e) {
      throw new IllegalStateException("cannot bind a loopback port for the shop's services", e);
    }
  }

  /** The catalogue's price of {@code sku}, in cents. */
  public static long priceCents(String sku) {
    return 1000 + Math.abs(sku.hashCode() % 9000);
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /**
   * Effects beyond the first per business reference, among the references starting with {@code prefix}: what a
   * customer would complain about (a second order, a second charge, a second e-mail).
   */
  public synchronized int duplicates(Service service, String prefix) {
    return effects.get(service).entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToInt(e -> e.getValue() - 1).sum();
  }

  /** The effects the service performed for the references starting with {@code prefix}. */
  public synchronized int effects(Service service, String prefix) {
    return effects.get(service).entrySet().stream().filter(e -> e.getKey().startsWith(prefix))
        .mapToInt(Map.Entry::getValue).sum();
  }

  /** The references the service performed an effect for. */
  public synchronized List<String> references(Service service) {
    return effects.get(service).keySet().stream().sorted().toList();
  }

  /** Requests received, and how many of them were answered with an injected failure. */
  public synchronized int requests() {
    return requests;
  }

  public synchronized int faults() {
    return faults;
  }

  private void catalog(HttpExchange ex) throws IOException {
    try (ex) {
      Fault fault = draw();
      if (fault == Fault.RATE_LIMITED) {
        rateLimited(ex);
        return;
      }
      if (fault != Fault.NONE) {
        send(ex, 503, "{\"error\":\"catalog unavailable\"}");
        return;
      }
      String sku = query(ex).getOrDefault("sku", "");
      send(ex, 200, "{\"sku\":\"" + sku + "\",\"price_cents\":" + priceCents(sku) + ",\"in_stock\":true}");
    }
  }

  private void write(HttpExchange ex, Service service) throws IOException {
    try (ex) {
      String reference = query(ex).getOrDefault("reference", "");
      String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
      Fault fault = draw();
      if (fault == Fault.UNAVAILABLE) {
        send(ex, 503, "{\"error\":\"" + service.name().toLowerCase() + " service unavailable\"}");
        return;
      }
      if (fault == Fault.RATE_LIMITED) {
        rateLimited(ex);
        return;
      }
      String answer;
      synchronized (this) {
        String replay = key == null ? null : answersByKey.get(service + ":" + key);
        if (replay != null) {
          answer = replay;
        } else {
          int n = effects.get(service).merge(reference, 1, Integer::sum);
          answer = "{\"" + service.name().toLowerCase() + "\":\"" + reference + "-" + n + "\"}";
          if (key != null) {
            answersByKey.put(service + ":" + key, answer);
          }
        }
      }
      if (fault == Fault.DROP_AFTER_EFFECT) {
        dropConnection(ex);
        return;
      }
      send(ex, 200, answer);
    }
  }

  /** {@code GET /orders?reference=}: whether the order exists; never faulty (a reconcile needs an answer to read). */
  private void findOrder(HttpExchange ex) throws IOException {
    try (ex) {
      String reference = query(ex).getOrDefault("reference", "");
      Integer n;
      synchronized (this) {
        n = effects.get(Service.ORDERS).get(reference);
      }
      send(ex, 200, n == null ? "{\"found\":false}" : "{\"found\":true,\"orders\":\"" + reference + "-1\"}");
    }
  }

  private enum Fault { NONE, DROP_AFTER_EFFECT, UNAVAILABLE, RATE_LIMITED }

  private synchronized Fault draw() {
    requests++;
    if (random.nextDouble() >= faultRate) {
      return Fault.NONE;
    }
    faults++;
    return switch (random.nextInt(3)) {
      case 0 -> Fault.DROP_AFTER_EFFECT;
      case 1 -> Fault.UNAVAILABLE;
      default -> Fault.RATE_LIMITED;
    };
  }

  private static void rateLimited(HttpExchange ex) throws IOException {
    ex.getResponseHeaders().add("Retry-After", "1");
    send(ex, 429, "{\"error\":\"rate limited\"}");
  }

  /** No answer at all: closing an exchange before its response headers closes the connection. */
  private static void dropConnection(HttpExchange ex) {
    ex.close();
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
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
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
