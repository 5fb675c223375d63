package dev.hfr.samples.async;

import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;

/** Asynchronous tools over the loopback shop: the JDK client's {@code sendAsync}, no thread held per request. */
public class AsyncShop {

  /** Two threads complete every response: the client must not grow a thread per waiting call either. */
  private final HttpClient http = HttpClient.newBuilder().executor(Executors.newFixedThreadPool(2, r -> {
    Thread t = new Thread(r, "async-shop-client");
    t.setDaemon(true);
    return t;
  })).build();
  private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(5);
  /**
   * The blocking reconcile query runs on the thread that completed the failed attempt — one of {@link
   * #http}'s two: it must not wait for that same client, so it has its own.
   */
  private final HttpClient queries = HttpClient.newHttpClient();

  private final URI base;
  private final Duration timeout;

  public AsyncShop(URI base, Duration timeout) {
    this.base = base;
    this.timeout = timeout;
  }

  /** Places an order; {@code ref} is the caller's reference, which {@link #findOrder} looks it up by. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public CompletableFuture<String> createOrder(String ref, String sku, int quantity) {
    String form = "ref=" + encode(ref) + "&sku=" + encode(sku) + "&quantity=" + quantity;
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/orders")).timeout(timeout)
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form)).build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(AsyncShop::firstField);
  }

  /** The order placed under {@code ref}, asked of the shop (a blocking query, run once per reconciliation). */
  public Optional<String> findOrder(String ref, String sku, int quantity) throws IOException, InterruptedException {
    // The question is short and must be answered: it gets more time than the order it asks about.
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/orders?ref=" + encode(ref))).timeout(QUERY_TIMEOUT).build();
    HttpResponse<String> response = queries.send(request, HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() == 404) {
      return Optional.empty();
    }
    return Optional.of(firstField(response));
  }

  /** Searches the catalogue; retried after a fixed 3 s (the engine is built with fixed backoff). */
  @SideEffect(Risk.R0)
  @Retry(maxAttempts = 3, baseDelayMs = 3000, maxDelayMs = 3000)
  public CompletionStage<String> search(String q) {
    searchCallers.add(Thread.currentThread().getName());
    HttpRequest request = HttpRequest.newBuilder(base.resolve("/search?q=" + encode(q))).timeout(timeout).build();
    return http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).thenApply(AsyncShop::firstField);
  }

  /** The threads each search attempt was started on. */
  final List<String> searchCallers = new CopyOnWriteArrayList<>();

  private static String firstField(HttpResponse<String> response) {
    if (response.statusCode() >= 300) {
      throw new CompletionException(HttpCallException.of(response));
    }
    String line = response.body().strip();
    int bar = line.indexOf('|');
    return bar < 0 ? line : line.substring(0, bar);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
