package dev.hfr.samples.ownership;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
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
 * The tools of the ownership, replay and kill tests, compiled by the HFR processor into {@code
 * OrderDesk_Recovering}: placing an order is a queryable write (R2: every request creates an order, only
 * {@code findOrder} tells whether one exists), charging is an idempotent write (R1: the service keeps
 * the first charge per key), the stock level a read.
 */
public class OrderDesk {

  private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(2)).build();
  private final URI service;

  public OrderDesk(URI service) {
    this.service = service;
  }

  /** Places an order for {@code ref}: the service answers with the new order's id. */
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String placeOrder(String ref, int quantity) throws IOException, InterruptedException {
    return send("POST", "/orders?ref=" + enc(ref) + "&qty=" + quantity, null).body();
  }

  /** Read-only by contract: the order placed for {@code ref}, if there is one. */
  public Optional<String> findOrder(String ref, int quantity) throws IOException, InterruptedException {
    HttpResponse<String> r = send("GET", "/orders?ref=" + enc(ref), null);
    return r.statusCode() == 404 ? Optional.empty() : Optional.of(r.body());
  }

  /** Charges {@code cents} for {@code ref}; the service charges each key once. */
  @SideEffect(Risk.R1)
  @Idempotent
  public String charge(String ref, long cents, @IdempotencyKey String key) throws IOException, InterruptedException {
    return send("POST", "/charges?ref=" + enc(ref) + "&cents=" + cents, key).body();
  }

  /** The stock of {@code sku}: a read. */
  @SideEffect(Risk.R0)
  public String stock(String sku) throws IOException, InterruptedException {
    return send("GET", "/stock?sku=" + enc(sku), null).body();
  }

  private HttpResponse<String> send(String method, String pathAndQuery, String idempotencyKey) throws IOException, InterruptedException {
    HttpRequest.Builder req = HttpRequest.newBuilder(service.resolve(pathAndQuery)).timeout(Duration.ofSeconds(5))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (idempotencyKey != null) {
      req.header("Idempotency-Key", idempotencyKey);
    }
    HttpResponse<String> r = client.send(req.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200 && r.statusCode() != 404) {
      throw new IOException(method + " " + pathAndQuery + " answered " + r.statusCode());
    }
    if (r.statusCode() == 404 && !method.equals("GET")) {
      throw new IOException(method + " " + pathAndQuery + " answered 404");
    }
    return r;
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
