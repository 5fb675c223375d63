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

  /**
   * After {@code sendAsync} returned {@code future} (a {@code CompletableFuture<HttpResponse>}), or threw: returns the
   * future the application gets, {@code future} itself unless enforcement may send the request again, which it then
   * does through {@code client} ({@code HttpClient}) with the same {@code request} and body {@code handler}.
   */
  Object jdkFinishAsync(Object call, Object client, Object request, Object handler, Object future, Throwable thrown);

  /** Before the first {@code getInputStream}/{@code getResponseCode} of a {@code java.net.HttpURLConnection}. */
  Object urlConnectionStart(Object connection);

  /** After that call returned or threw. */
  void urlConnectionFinish(Object call, Object connection, Throwable thrown);

  /**
   * Before a library client's request; the advice read {@code method}, {@code host}, the key's presence and whether the
   * body can be sent again.
   */
  Object libraryStart(int client, String method, String host, boolean idempotencyKey, boolean resendable);

  /**
   * After an attempt: {@code status} 0 when no response came, {@code headers} the values of
   * {@link HfrBridge#rateLimitHeaders()} or {@code null}. True (enforcement only) asks for the attempt to be run
   * again: the backoff has been waited out and {@code response} (a {@code Closeable}) closed.
   */
  boolean libraryFinish(Object call, Object response, int status, String[] headers, Throwable thrown, boolean canceled);

  /**
   * Before an Apache HttpClient 5 async {@code doExecute}: the call handle followed by the producer, the consumer and
   * the callback the method is to use instead (the agent's, which pass everything on to the application's), or
   * {@code null} to record nothing. {@code types} are Apache's {@code AsyncRequestProducer}, {@code AsyncResponseConsumer}
   * and {@code FutureCallback}.
   */
  Object[] apacheAsyncStart(Object client, Object target, Object producer, Object consumer, Object pushHandlerFactory,
      Object context, Object callback, Class<?>[] types);

  /**
   * After that {@code doExecute} returned {@code future} (or threw): the future the application gets, {@code future}
   * itself unless enforcement may send the request again.
   */
  Object apacheAsyncFinish(Object call, Object future, Throwable thrown);
}
