package dev.hfr.samples.quickstart;

import dev.hfr.annotations.IdempotencyKey;
import dev.hfr.annotations.Idempotent;
import dev.hfr.annotations.Retry;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.springframework.ai.tool.annotation.Tool;
import org.springframework.ai.tool.annotation.ToolParam;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/** The tools of docs/getting-started/spring.md: a read and an idempotent write over a shop's HTTP API. */
// tag::tools[]
@Component
public class OrderTools {

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI shop;

  public OrderTools(Environment environment) {   // constructor injection works as without HFR
    this.shop = environment.getRequiredProperty("shop.url", URI.class);
  }

  @Tool(description = "Looks a product up: its price in cents")
  @SideEffect(Risk.R0)                      // a read: retried freely
  @Retry(maxAttempts = 4)
  public String lookUpProduct(@ToolParam(description = "the product SKU, e.g. SKU-42") String sku)
      throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(shop.resolve("/products/" + sku)).GET());
  }

  @Tool(description = "Charges the customer's card for an order")
  @SideEffect(Risk.R1)                      // a write the service deduplicates by key
  @Idempotent
  public String chargeCard(@ToolParam(description = "the order reference") String order,
      @ToolParam(description = "the amount in cents") long cents,
      @IdempotencyKey String key)           // HFR fills it in; the model never sees it
      throws IOException, InterruptedException {
    return send(HttpRequest.newBuilder(shop.resolve("/payments?order=" + order + "&cents=" + cents))
        .header("Idempotency-Key", key).POST(HttpRequest.BodyPublishers.noBody()));
  }

  private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() >= 300) {
      throw HttpCallException.of(response);  // status, Retry-After and body: what HFR classifies
    }
    return response.body();
  }
}
// end::tools[]
