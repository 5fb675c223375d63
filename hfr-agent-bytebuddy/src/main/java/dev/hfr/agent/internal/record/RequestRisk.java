package dev.hfr.agent.internal.record;

import dev.hfr.annotations.Risk;
import java.util.Locale;

/**
 * What an HTTP request risks if it is sent twice, inferred from its method and an
 * {@code Idempotency-Key} header, since nobody annotated it: GET, HEAD, OPTIONS and TRACE read
 * ({@link Risk#R0}); PUT and DELETE (idempotent by HTTP's definition, RFC 9110 §9.2.2), or any request carrying a
 * key, are idempotent writes ({@link Risk#R1}); everything else (POST, PATCH, unknown methods) is a write whose outcome
 * has to be found out before anything else is tried ({@link Risk#R2}).
 */
public final class RequestRisk {

  private RequestRisk() {}

  /** The risk of a request with this method and, or without, an idempotency key. */
  public static Risk of(String method, boolean idempotencyKey) {
    if (isSafe(method)) {
      return Risk.R0;
    }
    return idempotencyKey || isIdempotentWrite(method) ? Risk.R1 : Risk.R2;
  }

  /**
   * Whether the agent may send the request again by itself under enforcement: the safe methods, PUT and DELETE, and
   * any request that carries an idempotency key (a POST without one never).
   */
  public static boolean retryable(String method, boolean idempotencyKey) {
    return isSafe(method) || isIdempotentWrite(method) || idempotencyKey;
  }

  private static boolean isIdempotentWrite(String method) {
    String m = methodTag(method);
    return m.equals("PUT") || m.equals("DELETE");
  }

  private static boolean isSafe(String method) {
    String m = methodTag(method);
    return m.equals("GET") || m.equals("HEAD") || m.equals("OPTIONS") || m.equals("TRACE");
  }

  /** The method as a bounded tag value: the standard methods upper-cased, anything else {@code OTHER}. */
  public static String methodTag(String method) {
    if (method == null) {
      return "OTHER";
    }
    String m = method.toUpperCase(Locale.ROOT);
    return switch (m) {
      case "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "TRACE", "CONNECT" -> m;
      default -> "OTHER";
    };
  }
}
