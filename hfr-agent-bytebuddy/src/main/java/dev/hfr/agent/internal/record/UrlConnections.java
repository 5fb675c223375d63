package dev.hfr.agent.internal.record;

import java.net.HttpURLConnection;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * What the agent reads of a {@code java.net.HttpURLConnection}, and the connections it has recorded
 * already (each is recorded once, at the first call that waits for its response). It reads the status
 * and {@code Retry-After} the connection has already received — the JDK caches both, and a failed
 * connection remembers its exception, so looking never sends anything again — and never the body or
 * the {@code Authorization} and cookie headers.
 */
final class UrlConnections {

  // weak: a connection the application dropped is forgotten with it
  private final Map<Object, Boolean> recorded = Collections.synchronizedMap(new WeakHashMap<>());

  /** True the first time it is asked about {@code connection}. */
  boolean firstTime(Object connection) {
    return recorded.putIfAbsent(connection, Boolean.TRUE) == null;
  }

  static String method(Object connection) {
    return ((HttpURLConnection) connection).getRequestMethod();
  }

  static String host(Object connection) {
    return ((HttpURLConnection) connection).getURL().getHost();
  }

  static boolean hasIdempotencyKey(Object connection) {
    try {
      return ((HttpURLConnection) connection).getRequestProperty("Idempotency-Key") != null;
    } catch (IllegalStateException alreadyConnected) {
      return false;
    }
  }

  /** The status received, or 0 when there was none (a timeout, a refused connection). */
  static int status(Object connection) {
    try {
      int code = ((HttpURLConnection) connection).getResponseCode();
      return Math.max(code, 0);
    } catch (Exception noResponse) {
      return 0;
    }
  }

  static String retryAfter(Object connection) {
    return ((HttpURLConnection) connection).getHeaderField("Retry-After");
  }
}
