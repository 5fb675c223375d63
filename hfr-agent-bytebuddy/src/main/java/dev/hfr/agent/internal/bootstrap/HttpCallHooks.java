package dev.hfr.agent.internal.bootstrap;

/**
 * What the agent does around one HTTP call; implemented by the agent in the system class loader and
 * called through {@link HfrBridge}. The types are JDK types only, because the bootstrap class loader
 * that holds this interface sees nothing else: JDK requests and connections travel as {@code Object}
 * (the implementation, which sees the platform classes, casts them), library requests as the few
 * strings the advice read from them.
 *
 * <p>A returned call handle is opaque to the bridge and the advice; {@code null} means "do not record".
 * Implementations may throw: the bridge catches, reports once and switches that client off.
 */
public interface HttpCallHooks {

  /** Before {@code java.net.http.HttpClient.send} or {@code sendAsync}; {@code request} is an {@code HttpRequest}. */
  Object jdkStart(Object request);

  /**
   * After a synchronous {@code send}: records the attempt and answers whether to send it again
   * (enforcement only, after the backoff has been waited out).
   */
  boolean jdkFinish(Object call, Object response, Throwable thrown);

  /** After {@code sendAsync} returned {@code future} (a {@code CompletableFuture<HttpResponse>}), or threw. */
  void jdkFinishAsync(Object call, Object future, Throwable thrown);

  /** Before the first {@code getInputStream}/{@code getResponseCode} of a {@code java.net.HttpURLConnection}. */
  Object urlConnectionStart(Object connection);

  /** After that call returned or threw. */
  void urlConnectionFinish(Object call, Object connection, Throwable thrown);

  /** Before a library client's request; the advice read {@code method}, {@code host} and the key's presence. */
  Object libraryStart(int client, String method, String host, boolean idempotencyKey);

  /** After it: {@code status} 0 when no response came, {@code retryAfter} the raw header or {@code null}. */
  void libraryFinish(Object call, int status, String retryAfter, Throwable thrown);
}
