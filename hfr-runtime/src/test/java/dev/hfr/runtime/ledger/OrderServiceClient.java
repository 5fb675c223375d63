package dev.hfr.runtime.ledger;

import dev.hfr.runtime.classify.HttpCallException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/**
 * The two HTTP calls the ledger tests' hand-written order tools make to {@link OrderService}: place an order
 * (the tool's body) and find one by its reference (the tool's reconcile method). A status the tool does not
 * expect becomes an {@link HttpCallException}, as a generated tool's would, so the engine classifies it.
 */
final class OrderServiceClient {

  private static final Duration TIMEOUT = Duration.ofSeconds(2);

  private final HttpClient http = HttpClient.newBuilder()
      .version(HttpClient.Version.HTTP_1_1).connectTimeout(TIMEOUT).build();
  private final String base;

  OrderServiceClient(int port) {
    this.base = "http://127.0.0.1:" + port;
  }

  /** POSTs {@code ref} to {@code path} ({@code /r1/orders} or {@code /r2/orders}), with the key if one is given. */
  String place(String path, String ref, String idempotencyKey) throws Exception {
    HttpRequest.Builder req = HttpRequest.newBuilder(URI.create(base + path))
        .timeout(TIMEOUT)
        .POST(HttpRequest.BodyPublishers.ofString(ref));
    if (idempotencyKey != null) {
      req.header("Idempotency-Key", idempotencyKey);
    }
    HttpResponse<String> resp = http.send(req.build(), HttpResponse.BodyHandlers.ofString());
    if (resp.statusCode() / 100 != 2) {
      throw HttpCallException.of(resp);
    }
    return resp.body();
  }

  /** The order placed under {@code ref}, or empty when the service has none. */
  Optional<String> find(String ref) throws Exception {
    HttpResponse<String> resp = http.send(
        HttpRequest.newBuilder(URI.create(base + "/orders?ref=" + ref)).timeout(TIMEOUT).GET().build(),
        HttpResponse.BodyHandlers.ofString());
    if (resp.statusCode() == 200) {
      return Optional.of(resp.body());
    }
    if (resp.statusCode() == 404) {
      return Optional.empty();
    }
    throw HttpCallException.of(resp);
  }
}
