package dev.hfr.samples.shop;

import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A small HTTP client for the shop's services. A failed response becomes an {@link HttpCallException}
 * (status, headers, body), which HFR's classifier reads; no answer in time is an
 * {@link java.net.http.HttpTimeoutException}. It knows nothing about retries: that is HFR's job.
 */
public class ShopApi {

  private final URI base;
  private final Duration timeout;
  private final HttpClient http;

  /**
   * @param base where the services listen
   * @param timeout how long to wait for one answer
   */
  public ShopApi(URI base, Duration timeout) {
    this.base = base;
    this.timeout = timeout;
    this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
  }

  /** GETs {@code pathAndQuery}; a non-2xx answer throws. */
  public String get(String pathAndQuery) throws IOException {
    return send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET(), false).orElseThrow();
  }

  /** GETs {@code pathAndQuery}; a 404 is an empty result, any other non-2xx answer throws. */
  public Optional<String> find(String pathAndQuery) throws IOException {
    return send(HttpRequest.newBuilder(base.resolve(pathAndQuery)).GET(), true);
  }

  /** POSTs a form, with extra headers; a non-2xx answer throws. */
  public String post(String path, Map<String, String> form, Map<String, String> headers) throws IOException {
    HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path))
        .header("Content-Type", "application/x-www-form-urlencoded")
        .POST(HttpRequest.BodyPublishers.ofString(encode(form)));
    headers.forEach(request::header);
    return send(request, false).orElseThrow();
  }

  /** {@code q=desk lamp} -> {@code q=desk+lamp}. */
  public static String encode(Map<String, String> values) {
    return values.entrySet().stream()
        .map(e -> URLEncoder.encode(e.getKey(), StandardCharsets.UTF_8) + "=" + URLEncoder.encode(e.getValue(), StandardCharsets.UTF_8))
        .collect(Collectors.joining("&"));
  }

  private Optional<String> send(HttpRequest.Builder request, boolean notFoundIsEmpty) throws IOException {
    try {
      HttpResponse<String> response = http.send(request.timeout(timeout).build(), HttpResponse.BodyHandlers.ofString());
      if (notFoundIsEmpty && response.statusCode() == 404) {
        return Optional.empty();
      }
      // tag::http-error[]
      if (response.statusCode() >= 300) {
        throw HttpCallException.of(response);   // status, Retry-After and body: what HFR classifies
      }
      // end::http-error[]
      return Optional.of(response.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      InterruptedIOException interrupted = new InterruptedIOException("interrupted while calling " + base);
      interrupted.initCause(e);
      throw interrupted;
    }
  }
}
