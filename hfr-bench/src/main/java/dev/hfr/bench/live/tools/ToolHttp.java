package dev.hfr.bench.live.tools;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hfr.bench.live.FailureClock;
import dev.hfr.runtime.classify.HttpCallException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The HTTP calls of the live tools, written the way an application writes them: a non-2xx answer
 * becomes an {@link HttpCallException} (status, headers, body — what the classifier reads), an I/O
 * failure (timeout, dropped connection) an {@link UncheckedIOException} around the JDK's exception.
 */
public final class ToolHttp {

  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client;
  private final Duration timeout;

  /** @param timeout the per-request timeout: what turns a held response into a timeout */
  public ToolHttp(Duration timeout) {
    this.client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(timeout).build();
    this.timeout = timeout;
  }

  /** POSTs {@code body} as JSON; {@code idempotencyKey} becomes the {@code Idempotency-Key} header when not null. */
  JsonNode post(URI uri, int task, Object body, String idempotencyKey) {
    try {
      HttpRequest.Builder b = HttpRequest.newBuilder(uri).timeout(timeout)
          .header("content-type", "application/json").header("x-task", Integer.toString(task))
          .POST(HttpRequest.BodyPublishers.ofByteArray(JSON.writeValueAsBytes(body)));
      if (idempotencyKey != null) {
        b.header("Idempotency-Key", idempotencyKey);
      }
      return send(b.build());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** GETs {@code uri}; 404 answers {@code null}. */
  JsonNode getOrNull(URI uri, int task) {
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).header("x-task", Integer.toString(task)).GET().build();
    try {
      return send(request);
    } catch (HttpCallException e) {
      if (e.status() == 404 && e.body() != null && e.body().contains("\"found\":false")) {
        return null;
      }
      throw e;
    }
  }

  private JsonNode send(HttpRequest request) {
    try {
      HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() / 100 != 2) {
        if (!(response.statusCode() == 404 && response.body().contains("\"found\":false"))) {
          FailureClock.failed(); // a lookup's "not found" is an answer, not a failure
        }
        throw HttpCallException.of(response);
      }
      return JSON.readTree(response.body());
    } catch (IOException e) {
      FailureClock.failed();
      throw new UncheckedIOException(request.method() + " " + request.uri() + " failed: " + e.getClass().getSimpleName(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during " + request.method() + " " + request.uri(), e);
    }
  }
}
