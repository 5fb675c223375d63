package dev.hfr.agent.internal.record;

import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;

/**
 * What the agent reads of {@code java.net.http} requests and responses. Only the method, the host, the
 * presence of an {@code Idempotency-Key}, the status, {@code Retry-After} and a prefix of a body the
 * application's body handler has already buffered (a {@code String} or {@code byte[]}) — never a
 * stream, never {@code Authorization} or cookies.
 */
final class JdkHttp {

  /** How much of an already buffered error body the classifier sees. */
  static final int BODY_PREFIX = 2048;

  private JdkHttp() {}

  static String method(Object request) {
    return ((HttpRequest) request).method();
  }

  static String host(Object request) {
    return ((HttpRequest) request).uri().getHost();
  }

  static boolean hasIdempotencyKey(Object request) {
    return ((HttpRequest) request).headers().firstValue("Idempotency-Key").isPresent();
  }

  static int status(Object response) {
    return response == null ? 0 : ((HttpResponse<?>) response).statusCode();
  }

  static String header(Object response, String name) {
    return response == null ? null : ((HttpResponse<?>) response).headers().firstValue(name).orElse(null);
  }

  /** The values of {@link RateLimitHeaders#NAMES} in a response, aligned with them; {@code null} without a response. */
  static String[] rateLimitHeaders(Object response) {
    if (response == null) {
      return null;
    }
    java.net.http.HttpHeaders headers = ((HttpResponse<?>) response).headers();
    String[] values = new String[RateLimitHeaders.NAMES.length];
    for (int i = 0; i < values.length; i++) {
      values[i] = headers.firstValue(RateLimitHeaders.NAMES[i]).orElse(null);
    }
    return values;
  }

  /** A prefix of the body when the application's handler has already read it into memory, else {@code null}. */
  static String bufferedBody(Object response) {
    if (response == null) {
      return null;
    }
    Object body = ((HttpResponse<?>) response).body();
    if (body instanceof String s) {
      return s.length() <= BODY_PREFIX ? s : s.substring(0, BODY_PREFIX);
    }
    if (body instanceof byte[] b) {
      return new String(b, 0, Math.min(b.length, BODY_PREFIX), StandardCharsets.UTF_8);
    }
    return null;
  }

  /**
   * Releases the body of a response the application will never see (an enforced retry replaces it), so
   * a streamed body does not hold its connection.
   */
  static void discard(Object response) {
    if (response == null) {
      return;
    }
    Object body = ((HttpResponse<?>) response).body();
    if (body instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception ignored) {
        // the response is dropped either way
      }
    }
  }
}
