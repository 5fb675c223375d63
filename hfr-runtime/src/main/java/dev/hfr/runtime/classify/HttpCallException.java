package dev.hfr.runtime.classify;

import java.net.http.HttpResponse;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a tool method throws when an HTTP call it made failed: the status, the response headers (names
 * in lower case) and a prefix of the body, so the classifier can tell a rate limit from a quota, an
 * overload from a plain 500, or a context overflow from another 400.
 *
 * <p>The body is cut to {@link #MAX_BODY_CHARS}; the message holds only the status and the target, never
 * the body, because messages end up in logs.
 */
public class HttpCallException extends RuntimeException implements ObservableFailure {

  private static final long serialVersionUID = 1L;

  /** How much of the body is kept: enough for any provider's error object. */
  public static final int MAX_BODY_CHARS = 8192;

  private final int status;
  private final transient Map<String, String> headers;
  private final String body;
  private final transient Observation observation;

  /**
   * @param status the HTTP status
   * @param headers response headers; names are folded to lower case, several values joined with ", "
   * @param body the response body or {@code null}; only its first {@link #MAX_BODY_CHARS} chars are kept
   */
  public HttpCallException(int status, Map<String, ? extends List<String>> headers, String body) {
    this(null, status, headers, body, null);
  }

  /**
   * @param target what was called (a URI or a name), for the message; may be {@code null}
   * @param status the HTTP status
   * @param headers response headers; names are folded to lower case, several values joined with ", "
   * @param body the response body or {@code null}; only its first {@link #MAX_BODY_CHARS} chars are kept
   * @param cause the underlying exception, or {@code null}
   */
  public HttpCallException(String target, int status, Map<String, ? extends List<String>> headers, String body, Throwable cause) {
    super("HTTP " + status + (target != null ? " from " + target : ""), cause);
    this.status = status;
    Observation.Builder b = Observation.builder().httpStatus(status).headers(headers);
    this.body = body == null || body.length() <= MAX_BODY_CHARS ? body : body.substring(0, MAX_BODY_CHARS);
    this.observation = b.body(this.body).build();
    this.headers = observation.headers();
  }

  /** The exception for a response the caller considers failed; a non-String body is not kept. */
  public static HttpCallException of(HttpResponse<?> response) {
    Object body = response.body();
    return new HttpCallException(response.request().method() + " " + response.uri(), response.statusCode(),
        response.headers().map(), body instanceof String ? (String) body : null, null);
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** Response headers, names in lower case. */
  public Map<String, String> headers() {
    return headers != null ? headers : Collections.unmodifiableMap(new TreeMap<>());
  }

  /** The value of a response header, case-insensitively, or {@code null}. */
  public String header(String name) {
    return headers == null ? null : headers.get(name.toLowerCase(Locale.ROOT));
  }

  /** The first {@link #MAX_BODY_CHARS} chars of the body, or {@code null}. */
  public String body() {
    return body;
  }

  @Override
  public Observation observation() {
    // transient: after deserialization only status and body are left
    return observation != null ? observation : Observation.builder().httpStatus(status).body(body).build();
  }
}
