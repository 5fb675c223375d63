package dev.hfr.it.docs.snippets;

import static java.net.http.HttpResponse.BodyHandlers.ofString;

import dev.hfr.annotations.Risk;
import dev.hfr.annotations.SideEffect;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** An asynchronous tool as docs/ENGINE.md shows it (compiled with the processor, which checks its rules). */
public class AsyncOrderTools {

  private final HttpClient http = HttpClient.newHttpClient();
  private final URI orders;

  public AsyncOrderTools(URI orders) {
    this.orders = orders;
  }

  // tag::async-tool[]
  @SideEffect(value = Risk.R2, reconcile = "findOrder")
  public CompletableFuture<String> createOrder(String ref, String sku, int quantity) {
    return http.sendAsync(request(ref, sku, quantity), ofString()).thenApply(Orders::orderId);
  }
  public Optional<String> findOrder(String ref, String sku, int quantity) { return Orders.find(ref); }
  // end::async-tool[]

  HttpRequest request(String ref, String sku, int quantity) {
    return HttpRequest.newBuilder(orders).POST(HttpRequest.BodyPublishers.ofString(ref + "," + sku + "," + quantity))
        .build();
  }

  /** Reads the order service's answers. */
  static final class Orders {
    private Orders() {}

    static String orderId(HttpResponse<String> response) {
      return response.body().strip();
    }

    static Optional<String> find(String ref) {
      return Optional.empty();
    }
  }
}
