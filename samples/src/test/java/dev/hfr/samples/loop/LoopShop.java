package dev.hfr.samples.loop;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
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
import java.util.Optional;

/**
 * The agent loop's shop, compiled by the HFR processor into {@code LoopShop_Recovering}: an order is a
 * queryable write (R2, {@code findOrder}), a charge an idempotent one (R1, the service keeps one charge per
 * key), a receipt an irreversible one (R3). Failed answers are thrown with their status and headers, as an
 * HTTP client library would.
 */
public class LoopShop {

  /** Each attempt waits this long for an answer: a slow answer is a timeout (T3). */
  static final Duration ANSWER_TIMEOUT = Duration.ofMillis(300);

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final URI service;

  public LoopShop(URI service) {
    this.service = service;
  }

  /** Places an order for {@code ref}; every request that reaches the service creates one. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String placeOrder(String ref) throws IOException, InterruptedException {
    return send("POST", "/orders?ref=" + enc(ref), null);
  }

  /** Read-only: the order placed for {@code ref}, if there is one. */
  public Optional<String> findOrder(String ref) throws IOException, InterruptedException {
    String body = send("GET", "/orders?ref=" + enc(ref), null);
    return body.isEmpty() ? Optional.empty() : Optional.of(body);
  }

  /** Charges {@code cents} for {@code ref}; the service charges each key once. */
  @SideEffect(Risk.R1)
  @Idempotent
  public String charge(String ref, long cents, @IdempotencyKey String key) throws IOException, InterruptedException {
    return send("POST", "/charges?ref=" + enc(ref) + "&cents=" + cents, key);
  }

  /** Sends the receipt to {@code to}: once sent, it cannot be taken back. */
  @SideEffect(Risk.R3)
  public String sendReceipt(String to) throws IOException, InterruptedException {
    return send("POST", "/receipts?to=" + enc(to), null);
  }

  private String send(String method, String pathAndQuery, String idempotencyKey) throws IOException, InterruptedException {
    HttpRequest.Builder req = HttpRequest.newBuilder(service.resolve(pathAndQuery)).timeout(ANSWER_TIMEOUT)
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (idempotencyKey != null) {
      req.header("Idempotency-Key", idempotencyKey);
    }
    HttpResponse<String> r = client.send(req.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 404 && method.equals("GET")) {
      return "";
    }
    if (r.statusCode() != 200) {
      throw new HttpCallException(r.statusCode(), r.headers().map(), r.body());
    }
    return r.body();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
