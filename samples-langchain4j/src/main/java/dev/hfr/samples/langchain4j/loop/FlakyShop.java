package dev.hfr.samples.langchain4j.loop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The services the loop's tools call, on 127.0.0.1: a catalogue search, orders (with a lookup by reference for
 * reconciling), payments that honour an {@code Idempotency-Key}, and receipts. Each request draws a fault with
 * probability {@code faultRate}, one of three alike: the effect happens and the connection drops before the answer;
 * 503 before anything happens; 429 with {@code Retry-After: 1}. The services count what they did per business
 * reference, so a second order, charge or receipt of one reference is a duplicate a customer would see.
 */
public final class FlakyShop implements AutoCloseable {

  /** The services whose effects are counted. */
  public enum Effect { ORDER, CHARGE, RECEIPT }

  private enum Fault { DROP_AFTER_EFFECT, UNAVAILABLE, RATE_LIMITED }

  private final HttpServer server;
  private final ExecutorService threads;
  private final double faultRate;
  private final SplittableRandom draws;
  private final Map<Effect, Map<String, Integer>> done = new EnumMap<>(Effect.class);
  private final Map<String, String> paymentsByKey = new ConcurrentHashMap<>();
  private int faults;

  private FlakyShop(HttpServer server, ExecutorService threads, double faultRate, long seed) {
    this.server = server;
    this.threads = threads;
    this.faultRate = faultRate;
    this.draws = new SplittableRandom(seed);
    for (Effect e : Effect.values()) {
      done.put(e, new HashMap<>());
    }
  }

  /** Starts the services on an ephemeral loopback port; {@code seed} makes the fault draws repeatable. */
  public static FlakyShop start(double faultRate, long seed) throws IOException {
    if (!(faultRate >= 0 && faultRate <= 1)) {
      throw new IllegalArgumentException("faultRate must be within 0..1, was " + faultRate);
    }
    HttpServer http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 16);
    ExecutorService threads = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "flaky-shop");
      t.setDaemon(true);
      return t;
    });
    FlakyShop shop = new FlakyShop(http, threads, faultRate, seed);
    http.createContext("/search", shop::search);
    http.createContext("/orders", shop::orders);
    http.createContext("/payments", ex -> shop.effect(ex, Effect.CHARGE));
    http.createContext("/receipts", ex -> shop.effect(ex, Effect.RECEIPT));
    http.setExecutor(threads);
    http.start();
    return shop;
  }

  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Effects beyond the first per reference. */
  public synchronized int duplicates(Effect effect) {
    return done.get(effect).values().stream().mapToInt(n -> n - 1).sum();
  }

  /** The faults injected so far. */
  public synchronized int faults() {
    return faults;
  }

  /** The catalogue's price of {@code sku} in cents. */
  public static long price(String sku) {
    return 500 + Math.floorMod(sku.hashCode(), 5000);
  }

  private void search(HttpExchange ex) throws IOException {
    try (ex) {
      Fault fault = draw();
      if (fault == Fault.RATE_LIMITED) {
        rateLimited(ex);
      } else if (fault != null) {
        answer(ex, 503, "{\"error\":\"search unavailable\"}");
      } else {
        String sku = param(ex, "sku");
        answer(ex, 200, "{\"sku\":\"" + sku + "\",\"price_cents\":" + price(sku) + "}");
      }
    }
  }

  private void orders(HttpExchange ex) throws IOException {
    if ("GET".equals(ex.getRequestMethod())) {
      try (ex) {
        boolean found;
        synchronized (this) {
          found = done.get(Effect.ORDER).containsKey(param(ex, "reference"));
        }
        answer(ex, found ? 200 : 404, found ? "{\"order\":\"" + param(ex, "reference") + "\"}" : "{\"error\":\"no such order\"}");
      }
      return;
    }
    effect(ex, Effect.ORDER);
  }

  private void effect(HttpExchange ex, Effect effect) throws IOException {
    try (ex) {
      Fault fault = draw();
      if (fault == Fault.UNAVAILABLE) {
        answer(ex, 503, "{\"error\":\"unavailable\"}");
        return;
      }
      if (fault == Fault.RATE_LIMITED) {
        rateLimited(ex);
        return;
      }
      String reference = param(ex, "reference");
      String key = ex.getRequestHeaders().getFirst("Idempotency-Key");
      String body = key == null ? null : paymentsByKey.get(key);
      if (body == null) {
        synchronized (this) {
          done.get(effect).merge(reference, 1, Integer::sum);
        }
        body = "{\"" + effect.name().toLowerCase() + "\":\"" + reference + "\"}";
        if (key != null) {
          paymentsByKey.put(key, body);
        }
      }
      if (fault == Fault.DROP_AFTER_EFFECT) {
        return;   // closing the exchange before any response header closes the connection: the answer is lost
      }
      answer(ex, 200, body);
    }
  }

  private synchronized Fault draw() {
    if (draws.nextDouble() >= faultRate) {
      return null;
    }
    faults++;
    return Fault.values()[draws.nextInt(3)];
  }

  private static void rateLimited(HttpExchange ex) throws IOException {
    ex.getResponseHeaders().add("Retry-After", "1");
    answer(ex, 429, "{\"error\":\"slow down\"}");
  }

  private static String param(HttpExchange ex, String name) {
    String raw = ex.getRequestURI().getRawQuery();
    for (String pair : raw == null ? new String[0] : raw.split("&")) {
      if (pair.startsWith(name + "=")) {
        return URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
      }
    }
    return "";
  }

  private static void answer(HttpExchange ex, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("content-type", "application/json");
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  @Override
  public void close() throws InterruptedException {
    server.stop(0);
    threads.shutdownNow();
    threads.awaitTermination(5, TimeUnit.SECONDS);
  }
}
