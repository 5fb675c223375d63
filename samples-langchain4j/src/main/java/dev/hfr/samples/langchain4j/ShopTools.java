package dev.hfr.samples.langchain4j;

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
 * The agent's tools: plain LangChain4j {@code @Tool} methods that call the shop's HTTP backend, with
 * their side-effect risk declared for HFR. The HFR processor generates {@code ShopTools_Recovering}, the
 * proxy the agent is given.
 */
// tag::tools[]
public class ShopTools {

  private final URI backend;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  public ShopTools(URI backend) {
    this.backend = backend;
  }

  @Tool("Returns how many units of a product are in stock")
  @SideEffect(Risk.R0)
  public int checkStock(@P("the product SKU, e.g. SKU-42") String sku) throws IOException, InterruptedException {
    String body = send(HttpRequest.newBuilder(backend.resolve("/stock?sku=" + enc(sku))).GET());
    return Integer.parseInt(body.replaceAll(".*\"units\":(\\d+).*", "$1"));
  }

  @Tool("Places an order for a product and returns the order id")
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public String placeOrder(@P("the product SKU") String sku, @P("how many units") int quantity)
      throws IOException, InterruptedException {
    String body = send(HttpRequest.newBuilder(backend.resolve("/orders?sku=" + enc(sku) + "&quantity=" + quantity))
        .POST(HttpRequest.BodyPublishers.noBody()));
    return orderId(body);
  }

  /** Reconciles {@link #placeOrder}: the order of this SKU and quantity, if the backend has it. */
  public Optional<String> findOrder(String sku, int quantity) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(backend.resolve("/orders?sku=" + enc(sku) + "&quantity=" + quantity))
        .timeout(Duration.ofMillis(400)).GET().build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() == 404) {
      return Optional.empty();
    }
    if (r.statusCode() != 200) {
      throw HttpCallException.of(r);
    }
    return Optional.of(orderId(r.body()));
  }

  private String send(HttpRequest.Builder request) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(request.timeout(Duration.ofMillis(400)).build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() >= 300) {
      throw HttpCallException.of(r);
    }
    return r.body();
  }

  private static String orderId(String body) {
    return body.replaceAll(".*\"id\":\"([^\"]+)\".*", "$1");
  }

  private static String enc(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }
}
// end::tools[]
