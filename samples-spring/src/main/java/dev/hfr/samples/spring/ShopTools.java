package dev.hfr.samples.spring;

import dev.hfr.annotations.Degrade;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.stereotype.Component;

/**
 * The assistant's tools: Spring AI {@code @Tool} methods over the shop's HTTP services, with HFR's annotations on the
 * same methods — a read with a cached fallback (R0), an order the service can be asked about (R2), an idempotent
 * charge (R1) and an e-mail that cannot be taken back (R3). Written as if HFR did not exist; the starter makes the
 * bean a {@code ShopTools_Recovering}, and the charge passes the {@code @IdempotencyKey} on to the payment service,
 * which is how a resend is recognised there.
 */
// tag::tools[]
@Component
public class ShopTools {

  private final URI shop;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public ShopTools(LoopbackShop shop) {
    this.shop = shop.uri();
  }

  @Tool(description = "Looks a product up in the catalogue: price in cents and availability")
  @SideEffect(Risk.R0)
  @Degrade(to = "cachedProduct", level = DegradeLevel.L3)
  public String lookUpProduct(@ToolParam(description = "the product SKU, e.g. SKU-42") String sku) {
    return send("GET", "/catalog?sku=" + enc(sku), null);
  }

  /** The catalogue as of the last price list, when the catalogue service does not answer. */
  @SideEffect(Risk.R0)
  public String cachedProduct(String sku) {
    return "{\"sku\":\"" + sku + "\",\"price_cents\":" + LoopbackShop.priceCents(sku) + ",\"in_stock\":true}";
  }

  @Tool(description = "Places the order of a conversation")
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String placeOrder(@ToolParam(description = "the order reference") String reference,
      @ToolParam(description = "the product SKU") String sku, @ToolParam(description = "how many units") int quantity) {
    return send("POST", "/orders?reference=" + enc(reference) + "&sku=" + enc(sku) + "&quantity=" + quantity, null);
  }

  /** Whether the order service holds the order of {@code reference}: what HFR asks before placing it again. */
  public Optional<String> findOrder(String reference, String sku, int quantity) {
    String answer = send("GET", "/orders?reference=" + enc(reference), null);
    return answer.contains("\"found\":true") ? Optional.of(answer) : Optional.empty();
  }

  @Tool(description = "Charges the customer's card for an order")
  @SideEffect(Risk.R1)
  @Idempotent
  public String chargeCard(@ToolParam(description = "the order reference") String reference,
      @ToolParam(description = "the amount in cents") long cents, @IdempotencyKey String key) {
    return send("POST", "/payments?reference=" + enc(reference) + "&cents=" + cents, key);
  }

  @Tool(description = "Sends the order confirmation e-mail to the customer")
  @SideEffect(Risk.R3)
  public String sendConfirmation(@ToolParam(description = "the order reference") String reference,
      @ToolParam(description = "the customer's e-mail address") String email) {
    return send("POST", "/mail?reference=" + enc(reference) + "&to=" + enc(email), null);
  }
  // end::tools[]

  private String send(String method, String pathAndQuery, String idempotencyKey) {
    HttpRequest.Builder request = HttpRequest.newBuilder(shop.resolve(pathAndQuery)).timeout(Duration.ofSeconds(2))
        .method(method, HttpRequest.BodyPublishers.noBody());
    if (idempotencyKey != null) {
      request.header("Idempotency-Key", idempotencyKey);
    }
    try {
      HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
      // tag::http-error[]
      if (response.statusCode() >= 300) {
        throw HttpCallException.of(response);   // status, Retry-After and body: what HFR classifies
      }
      // end::http-error[]
      return response.body();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while calling " + pathAndQuery, e);
    }
  }

  private static String enc(String s) {
    return URLEncoder.encode(s == null ? "" : s, StandardCharsets.UTF_8);
  }
}
