package dev.hfr.mcp.internal;

import dev.hfr.runtime.internal.http.FailedResponseListener;
import dev.hfr.runtime.internal.http.ObservedHttpClients;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The status and headers of a failed HTTP response of one MCP request. The SDK's streamable HTTP transport
 * turns a 429 or a 503 into an exception whose message keeps the status at best and drops the headers — and
 * with them {@code Retry-After}. The client wrapper opens a capture around each {@code tools/call}; the
 * request carries the capture's id in a header ({@link #HEADER}); the HTTP client built by {@link
 * #recordingClient()} (the runtime's {@link ObservedHttpClients}) fills the capture when the response head
 * arrives.
 */
public final class HttpFailureCapture implements AutoCloseable {

  /** The request header carrying the capture id; the server ignores it. */
  public static final String HEADER = "x-hfr-capture";
  /** The key of the open capture in the SDK's transport context. */
  public static final String CONTEXT_KEY = "hfr.http-capture";

  private static final AtomicLong IDS = new AtomicLong();
  private static final Map<String, HttpFailureCapture> OPEN = new ConcurrentHashMap<>();

  private final String id;
  private volatile int status;
  private volatile Map<String, List<String>> headers = Map.of();

  private HttpFailureCapture(String id) {
    this.id = id;
  }

  /**
   * A JDK client builder (HTTP/1.1, the SDK's own default) whose failed responses fill the capture their
   * request names.
   */
  public static HttpClient.Builder recordingClient() {
    return ObservedHttpClients.builder(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1),
        new FailedResponseListener<HttpFailureCapture>() {
          @Override
          public HttpFailureCapture onSend(java.net.http.HttpRequest request) {
            return find(request.headers().firstValue(HEADER).orElse(null));
          }

          @Override
          public void onFailedResponse(HttpFailureCapture capture, int status, HttpHeaders headers) {
            capture.record(status, headers);
          }
        });
  }

  /** Opens a capture; close it when the call is over. */
  public static HttpFailureCapture open() {
    HttpFailureCapture c = new HttpFailureCapture(Long.toString(IDS.incrementAndGet()));
    OPEN.put(c.id, c);
    return c;
  }

  /** The open capture named by {@code id}, or {@code null}. */
  static HttpFailureCapture find(String id) {
    return id == null ? null : OPEN.get(id);
  }

  public String id() {
    return id;
  }

  /** Records a failed response head (status 400 or more); the last one wins. */
  void record(int status, HttpHeaders headers) {
    this.headers = headers.map();
    this.status = status;
  }

  /** The status of the failed response, or 0 when none failed. */
  public int status() {
    return status;
  }

  /** The failed response's headers. */
  public Map<String, List<String>> headers() {
    return headers;
  }

  @Override
  public void close() {
    OPEN.remove(id);
  }
}
