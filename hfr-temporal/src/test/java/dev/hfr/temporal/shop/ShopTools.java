package dev.hfr.temporal.shop;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.annotations.Timeout;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;

/** The shop's tools as an activity calls them; the processor generates {@code ShopTools_Recovering}. */
public class ShopTools {

  private final URI shop;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public ShopTools(URI shop) {
    this.shop = shop;
  }

  /** A price quote: read-only. */
  @SideEffect(Risk.R0)
  @Timeout(ms = 2000)
  public String quote(String sku) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(shop.resolve("/quote?sku=" + enc(sku))).GET(), false).orElseThrow();
  }

  /** Places an order under the customer's reference: found again by {@link #findOrder}. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  @Timeout(ms = 2000)
  public String createOrder(String ref, String sku) throws IOException, InterruptedException {
    return send(post("/orders", "ref=" + enc(ref) + "&sku=" + enc(sku)), false).orElseThrow();
  }

  /** The order placed under {@code ref}, if any. */
  public Optional<String> findOrder(String ref, String sku) throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(shop.resolve("/orders?ref=" + enc(ref))).GET(), true);
  }

  /** Charges an order; the provider deduplicates on the key HFR fills in. */
  @SideEffect(Risk.R1)
  @Idempotent
  @Retry(maxAttempts = 2, baseDelayMs = 20, maxDelayMs = 100)
  @Timeout(ms = 2000)
  public String charge(String ref, long cents, @IdempotencyKey String key) throws IOException, InterruptedException {
    HttpRequest.Builder request = post("/charges", "ref=" + enc(ref) + "&cents=" + cents);
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return send(request, false).orElseThrow();
  }

  /** Sends the confirmation e-mail: irreversible. */
  @SideEffect(Risk.R3)
  @Timeout(ms = 2000)
  public String sendEmail(String ref, String text) throws IOException, InterruptedException {
    return send(post("/emails", "ref=" + enc(ref) + "&text=" + enc(text)), false).orElseThrow();
  }

  private HttpRequest.Builder post(String path, String form) {
    return HttpRequest.newBuilder(shop.resolve(path)).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form));
  }

  private Optional<String> send(HttpRequest.Builder request, boolean notFoundIsEmpty)
      throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(2)).build(),
        HttpResponse.BodyHandlers.ofString());
    if (notFoundIsEmpty && response.statusCode() == 404) {
      return Optional.empty();
    }
    if (response.statusCode() >= 300) {
      throw HttpCallException.of(response);
    }
    return Optional.of(response.body());
  }

  private static String enc(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
