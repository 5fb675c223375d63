package dev.hfr.samples.langchain4j.loop;

import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.classify.HttpCallException;
import dev.langchain4j.agent.tool.P;
import dev.langchain4j.agent.tool.Tool;
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
 * The loop's four tools, one of each risk: a search with a cached fallback (R0), an order the service can be asked
 * about (R2), an idempotent charge (R1, its key filled by HFR, never by the model) and a receipt e-mail that cannot
 * be taken back (R3).
 */
public class LoopTools {

  private final URI shop;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public LoopTools(URI shop) {
    this.shop = shop;
  }

  @Tool("Finds a product and its price in cents")
  @SideEffect(Risk.R0)
  @Degrade(to = "searchCache", level = DegradeLevel.L3)
  public String search(@P("the product SKU") String sku) throws IOException, InterruptedException {
    return call("GET", "/search?sku=" + enc(sku), null);
  }

  /** Yesterday's price list: the fallback when search does not answer. */
  @SideEffect(Risk.R0)
  public String searchCache(String sku) {
    return "{\"sku\":\"" + sku + "\",\"price_cents\":" + FlakyShop.price(sku) + "}";
  }

  @Tool("Creates the order of a conversation")
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String createOrder(@P("the order reference") String reference, @P("the product SKU") String sku,
      @P("how many units") int quantity) throws IOException, InterruptedException {
    return call("POST", "/orders?reference=" + enc(reference) + "&sku=" + enc(sku) + "&quantity=" + quantity, null);
  }

  /** Reconciles {@link #createOrder}: the order of this reference, if the service has it. */
  public Optional<String> findOrder(String reference, String sku, int quantity) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(shop.resolve("/orders?reference=" + enc(reference)))
        .timeout(Duration.ofSeconds(2)).GET().build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 404) {
      return Optional.empty();
    }
    if (r.statusCode() != 200) {
      throw HttpCallException.of(r);
    }
    return Optional.of(r.body());
  }

  @Tool("Charges the customer for an order")
  @SideEffect(Risk.R1)
  @Idempotent
  public String charge(@P("the order reference") String reference, @P("the amount in cents") long cents,
      @IdempotencyKey String key) throws IOException, InterruptedException {
    return call("POST", "/payments?reference=" + enc(reference) + "&cents=" + cents, key);
  }

  @Tool("Sends the receipt e-mail of an order")
  @SideEffect(Risk.R3)
  public String sendReceipt(@P("the order reference") String reference, @P("the customer's e-mail") String email)
      throws IOException, InterruptedException {
    return call("POST", "/receipts?reference=" + enc(reference) + "&to=" + enc(email), null);
  }

  private String call(String method, String pathAndQuery, String key) throws IOException, InterruptedException {
    HttpRequest.Builder request = HttpRequest.newBuilder(shop.resolve(pathAndQuery)).timeout(Duration.ofSeconds(2))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (key != null) {
      request.header("Idempotency-Key", key);
    }
    HttpResponse<String> r = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 300) {
      throw HttpCallException.of(r);
    }
    return r.body();
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
