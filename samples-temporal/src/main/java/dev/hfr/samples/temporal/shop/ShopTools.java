package dev.hfr.samples.temporal.shop;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
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

/**
 * The order workflow's tools, one of each risk. Plain, they are what a Temporal user's activities call; the
 * processor's {@code ShopTools_Recovering} runs the same methods through HFR.
 */
public class ShopTools {

  private final URI shop;
  private final String worker;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();

  /**
   * @param shop where the services listen
   * @param worker the worker's name, sent with every request so the services can tell workers apart
   */
  public ShopTools(URI shop, String worker) {
    this.shop = shop;
    this.worker = worker;
  }

  /** Finds the product: read-only. */
  @SideEffect(Risk.R0)
  @Timeout(ms = 1000)
  public String search(String sku) throws IOException, InterruptedException {
    return send(get("/search?q=" + enc(sku)), false).orElseThrow();
  }

  // tag::writes[]
  /** Places the order under the workflow's reference; {@link #findOrder} finds it again. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  @Timeout(ms = 1000)
  public String createOrder(String ref, String sku) throws IOException, InterruptedException {
    return send(post("/orders", "ref=" + enc(ref) + "&sku=" + enc(sku)), false).orElseThrow();
  }

  /** The order placed under {@code ref}, if any. */
  public Optional<String> findOrder(String ref, String sku) throws IOException, InterruptedException {
    return send(get("/orders?ref=" + enc(ref)), true);
  }

  /** Charges the order; the provider charges once per {@code Idempotency-Key} (HFR fills it in). */
  @SideEffect(Risk.R1)
  @Idempotent
  @Timeout(ms = 1000)
  public String charge(String ref, long cents, @IdempotencyKey String key) throws IOException, InterruptedException {
    HttpRequest.Builder request = post("/payments", "ref=" + enc(ref) + "&cents=" + cents);
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    return send(request, false).orElseThrow();
  }
  // end::writes[]

  /** Sends the confirmation: irreversible; {@link #findEmail} tells whether it went out. */
  @SideEffect(value = Risk.R3, reconcile = "findEmail")
  @Timeout(ms = 1000)
  public String sendEmail(String ref, String to) throws IOException, InterruptedException {
    return send(post("/emails", "ref=" + enc(ref) + "&to=" + enc(to)), false).orElseThrow();
  }

  /** The confirmation sent for {@code ref}, if any. */
  public Optional<String> findEmail(String ref, String to) throws IOException, InterruptedException {
    return send(get("/emails?ref=" + enc(ref)), true);
  }

  private HttpRequest.Builder get(String path) {
    return HttpRequest.newBuilder(shop.resolve(path)).GET();
  }

  private HttpRequest.Builder post(String path, String form) {
    return HttpRequest.newBuilder(shop.resolve(path)).header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(form));
  }

  private Optional<String> send(HttpRequest.Builder request, boolean notFoundIsEmpty)
      throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(request.header("X-Worker", worker).timeout(Duration.ofSeconds(1)).build(),
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
