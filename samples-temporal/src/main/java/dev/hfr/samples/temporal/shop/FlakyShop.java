package dev.hfr.samples.temporal.shop;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;

/**
 * The shop's services on 127.0.0.1 over real HTTP — search, orders, payments, e-mail — failing like real ones:
 * with probability {@code p} a request gets a fault instead of its answer, one of three alike: a write committed
 * and its connection then dropped (a read's connection dropped), a 503, or a 429 with {@code Retry-After: 1}.
 * It counts what it committed per order reference, so duplicates are the services' own count, and can hold
 * a route in a rate-limit storm (a 429 to every request) to count the requests that reach it meanwhile.
 */
public final class FlakyShop implements AutoCloseable {

  private final HttpServer server;
  private final double p;
  private final Random random;
  private final Map<String, AtomicInteger> orders = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> charges = new ConcurrentHashMap<>();
  private final Map<String, String> chargeKeys = new ConcurrentHashMap<>();
  private final Map<String, AtomicInteger> emails = new ConcurrentHashMap<>();
  private final AtomicInteger faults = new AtomicInteger();
  private final AtomicInteger stormRequests = new AtomicInteger();
  private volatile String stormRoute;
  private volatile long stormMillis;
  private volatile long stormEndsNanos;
  private volatile int stormRetryAfterSeconds;
  private final java.util.concurrent.BlockingQueue<String> desk = new java.util.concurrent.LinkedBlockingQueue<>();
  private volatile BiConsumer<String, String> onWrite = (worker, route) -> {};

  private FlakyShop(HttpServer server, double p, long seed) {
    this.server = server;
    this.p = p;
    this.random = new Random(seed);
  }

  /** Starts the services on a free port of 127.0.0.1, failing at {@code p} with faults drawn from {@code seed}. */
  public static FlakyShop start(double p, long seed) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(Executors.newFixedThreadPool(16, r -> {
      Thread t = new Thread(r, "flaky-shop");
      t.setDaemon(true);
      return t;
    }));
    FlakyShop shop = new FlakyShop(server, p, seed);
    server.createContext("/", shop::handle);
    server.start();
    return shop;
  }

  /** Where the services listen. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
  }

  /** Called with the worker's name and the route after each write is committed, before it is answered (the sample's kill switch). */
  public void onWrite(BiConsumer<String, String> hook) {
    this.onWrite = hook;
  }

  /**
   * Every request to {@code route} answers 429 with {@code Retry-After} for {@code millis}, from the route's
   * next request on (so the storm meets the workflows whenever they get there).
   */
  public void storm(String route, long millis, int retryAfterSeconds) {
    stormRequests.set(0);
    stormRetryAfterSeconds = retryAfterSeconds;
    stormMillis = millis;
    stormEndsNanos = 0;
    stormRoute = route;
  }

  /** Requests that reached the storm's route while it lasted. */
  public int stormRequests() {
    return stormRequests.get();
  }

  /** Orders committed beyond the first of each reference. */
  public int duplicateOrders() {
    return duplicates(orders);
  }

  /** Charges committed beyond the first of each order reference. */
  public int duplicateCharges() {
    return duplicates(charges);
  }

  /** E-mails sent beyond the first of each order reference. */
  public int duplicateEmails() {
    return duplicates(emails);
  }

  /**
   * The next question a workflow put to a person ({@code <workflow id>|<question>}), waiting up to {@code millis};
   * {@code null} when none came.
   */
  public String nextQuestion(long millis) throws InterruptedException {
    return desk.poll(millis, java.util.concurrent.TimeUnit.MILLISECONDS);
  }

  /** Faults injected so far. */
  public int faults() {
    return faults.get();
  }

  @Override
  public void close() {
    server.stop(0);
  }

  /** Whether the storm lasts; its first request starts it. */
  private synchronized boolean inStorm() {
    long now = System.nanoTime();
    if (stormEndsNanos == 0) {
      stormEndsNanos = now + stormMillis * 1_000_000L;
    }
    return now < stormEndsNanos;
  }

  private static int duplicates(Map<String, AtomicInteger> committed) {
    return committed.values().stream().mapToInt(n -> Math.max(0, n.get() - 1)).sum();
  }

  private enum Injected { NONE, DROP, UNAVAILABLE, RATE_LIMITED }

  private Injected draw() {
    synchronized (random) {
      if (random.nextDouble() >= p) {
        return Injected.NONE;
      }
      faults.incrementAndGet();
      return Injected.values()[1 + random.nextInt(3)];
    }
  }

  private void handle(HttpExchange exchange) throws IOException {
    String route = exchange.getRequestMethod() + " " + exchange.getRequestURI().getPath();
    Map<String, String> form = parse(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
    form.putAll(parse(exchange.getRequestURI().getRawQuery()));
    if (route.equals("POST /desk")) {
      // the operations desk: questions for a person, never failing
      desk.add(form.getOrDefault("ref", "") + "|" + form.getOrDefault("question", ""));
      respond(exchange, 202, "asked");
      return;
    }
    if (route.equals(stormRoute) && inStorm()) {
      stormRequests.incrementAndGet();
      exchange.getResponseHeaders().set("Retry-After", Integer.toString(stormRetryAfterSeconds));
      respond(exchange, 429, "rate limited");
      return;
    }
    Injected fault = draw();
    if (fault == Injected.UNAVAILABLE) {
      respond(exchange, 503, "unavailable");
      return;
    }
    if (fault == Injected.RATE_LIMITED) {
      exchange.getResponseHeaders().set("Retry-After", "1");
      respond(exchange, 429, "rate limited");
      return;
    }
    String[] answer = serve(route, form, exchange.getRequestHeaders().getFirst("Idempotency-Key"));
    if (route.startsWith("POST")) {
      onWrite.accept(String.valueOf(exchange.getRequestHeaders().getFirst("X-Worker")), route);
    }
    if (fault == Injected.DROP) {
      exchange.close();   // committed (a write) but never answered
      return;
    }
    respond(exchange, Integer.parseInt(answer[0]), answer[1]);
  }

  private String[] serve(String route, Map<String, String> form, String key) {
    String ref = form.getOrDefault("ref", "");
    switch (route) {
      case "GET /search":
        return new String[] {"200", form.getOrDefault("q", "") + "|2900"};
      case "POST /orders":
        orders.computeIfAbsent(ref, r -> new AtomicInteger()).incrementAndGet();
        return new String[] {"201", "order-" + ref};
      case "GET /orders":
        return found(orders, ref, "order-" + ref);
      case "POST /payments":
        // With a key, one charge per key (a resend gets the first receipt); without, every request charges.
        if (key == null || chargeKeys.putIfAbsent(key, ref) == null) {
          charges.computeIfAbsent(ref, r -> new AtomicInteger()).incrementAndGet();
        }
        return new String[] {"200", "receipt-" + ref};
      case "POST /emails":
        emails.computeIfAbsent(ref, r -> new AtomicInteger()).incrementAndGet();
        return new String[] {"202", "mail-" + ref};
      case "GET /emails":
        return found(emails, ref, "mail-" + ref);
      default:
        return new String[] {"404", "no route " + route};
    }
  }

  private static String[] found(Map<String, AtomicInteger> committed, String ref, String answer) {
    AtomicInteger n = committed.get(ref);
    return n != null && n.get() > 0 ? new String[] {"200", answer} : new String[] {"404", "none for " + ref};
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
    exchange.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
