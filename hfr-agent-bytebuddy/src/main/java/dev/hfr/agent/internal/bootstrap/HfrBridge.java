package dev.hfr.agent.internal.bootstrap;

/**
 * The only code the inlined advice calls. It is injected into the bootstrap class loader, so that
 * {@code java.base} and {@code java.net.http} classes can see it, and forwards to the agent's
 * {@link HttpCallHooks}. It keeps the re-entry guard, and it is where the agent's own failures stop:
 * whatever a hook throws is reported once on stderr and switches that client off for the life of the
 * JVM, so the application's call goes on exactly as if the agent were not there.
 *
 * <p>Every {@code ...Enter} method returns {@code null} (nothing to undo), {@link #NESTED} (leave one
 * level on exit, record nothing) or a call handle; the matching {@code ...Exit} method must be given it.
 */
public final class HfrBridge {

  /** Client slots: {@code java.net.http.HttpClient}. */
  public static final int JDK_HTTP_CLIENT = 0;
  /** {@code java.net.HttpURLConnection}. */
  public static final int HTTP_URL_CONNECTION = 1;
  /** OkHttp 4 and 5. */
  public static final int OKHTTP = 2;
  /** Apache HttpClient 5 (classic and async). */
  public static final int APACHE_HTTPCLIENT5 = 3;
  /** The number of client slots. */
  public static final int CLIENTS = 4;

  private static final String[] NAMES = {"jdk-httpclient", "http-url-connection", "okhttp", "apache-httpclient5"};

  /**
   * The response headers the library clients' advice reads (only from a response of status 400 or more), in this order:
   * the rate-limit hints enforcement honours, and the remaining counts that say which reset applies.
   */
  private static final String[] RATE_LIMIT_HEADERS = {"Retry-After", "retry-after-ms",
      "x-ratelimit-reset-requests", "x-ratelimit-reset-tokens", "x-ratelimit-remaining-requests", "x-ratelimit-remaining-tokens",
      "anthropic-ratelimit-requests-reset", "anthropic-ratelimit-tokens-reset", "anthropic-ratelimit-input-tokens-reset",
      "anthropic-ratelimit-output-tokens-reset"};

  /** Marks a nested call: its exit leaves one level of {@link CallDepth} and records nothing. */
  public static final Object NESTED = new Object();

  private static volatile HttpCallHooks hooks;
  /**
   * One bit per client slot, set when the client is switched off. A volatile int rather than an
   * {@code AtomicIntegerArray}, whose array {@code VarHandle} premain would set up in every JVM; it changes
   * at most once per client, under the class's lock.
   */
  private static volatile int disabled;

  private HfrBridge() {}

  /** The names of the headers the advice reads for {@link #libraryExit} (a copy: the caller may not change the bridge's). */
  public static String[] rateLimitHeaders() {
    return RATE_LIMIT_HEADERS.clone();
  }

  /** The tag value and log name of a client slot. */
  public static String clientName(int client) {
    return NAMES[client];
  }

  /** Connects the agent; false when an agent was connected already (a second attach). */
  public static synchronized boolean install(HttpCallHooks agentHooks) {
    if (hooks != null) {
      return false;
    }
    hooks = agentHooks;
    return true;
  }

  /** Whether a client is still recorded (false after an internal failure switched it off). */
  public static boolean enabled(int client) {
    return (disabled & (1 << client)) == 0;
  }

  // ---- java.net.http.HttpClient ----

  public static Object jdkEnter(Object request) {
    HttpCallHooks h = active(JDK_HTTP_CLIENT);
    if (h == null) {
      return null;
    }
    if (!CallDepth.enter(JDK_HTTP_CLIENT)) {
      return NESTED;
    }
    try {
      Object call = h.jdkStart(request);
      return call == null ? NESTED : call;
    } catch (Throwable t) {
      fail(JDK_HTTP_CLIENT, t);
      return NESTED;
    }
  }

  /** After {@code send}; true asks the advice to run the method again (an enforced retry). */
  public static boolean jdkSendExit(Object call, Object response, Throwable thrown) {
    if (call == null) {
      return false;
    }
    if (call != NESTED && enabled(JDK_HTTP_CLIENT)) {
      try {
        if (hooks.jdkFinish(call, response, thrown)) {
          return true; // still inside the outermost call: keep the depth for the repeat
        }
      } catch (Throwable t) {
        fail(JDK_HTTP_CLIENT, t);
      }
    }
    CallDepth.exit(JDK_HTTP_CLIENT);
    return false;
  }

  /**
   * After {@code sendAsync} returned {@code future} (or threw): the future the application gets, the same one unless
   * enforcement may repeat the request ({@link HttpCallHooks#jdkFinishAsync}).
   */
  public static Object jdkAsyncExit(Object call, Object client, Object request, Object handler, Object future, Throwable thrown) {
    if (call == null) {
      return future;
    }
    try {
      if (call != NESTED && enabled(JDK_HTTP_CLIENT)) {
        return hooks.jdkFinishAsync(call, client, request, handler, future, thrown);
      }
    } catch (Throwable t) {
      fail(JDK_HTTP_CLIENT, t);
    } finally {
      CallDepth.exit(JDK_HTTP_CLIENT);
    }
    return future;
  }

  // ---- java.net.HttpURLConnection ----

  public static Object urlConnectionEnter(Object connection) {
    HttpCallHooks h = active(HTTP_URL_CONNECTION);
    if (h == null) {
      return null;
    }
    if (!CallDepth.enter(HTTP_URL_CONNECTION)) {
      return NESTED;
    }
    try {
      Object call = h.urlConnectionStart(connection);
      return call == null ? NESTED : call;
    } catch (Throwable t) {
      fail(HTTP_URL_CONNECTION, t);
      return NESTED;
    }
  }

  public static void urlConnectionExit(Object call, Object connection, Throwable thrown) {
    if (call == null) {
      return;
    }
    try {
      // the depth is still held here, so the hook's own look at the connection is not recorded again
      if (call != NESTED && enabled(HTTP_URL_CONNECTION)) {
        hooks.urlConnectionFinish(call, connection, thrown);
      }
    } catch (Throwable t) {
      fail(HTTP_URL_CONNECTION, t);
    } finally {
      CallDepth.exit(HTTP_URL_CONNECTION);
    }
  }

  // ---- OkHttp, Apache HttpClient 5 ----

  /**
   * Before a library client's attempt.
   *
   * @param resendable whether the request's body, if any, can be sent again
   */
  public static Object libraryEnter(int client, String method, String host, boolean idempotencyKey, boolean resendable) {
    HttpCallHooks h = active(client);
    if (h == null) {
      return null;
    }
    if (!CallDepth.enter(client)) {
      return NESTED;
    }
    try {
      Object call = h.libraryStart(client, method, host, idempotencyKey, resendable);
      return call == null ? NESTED : call;
    } catch (Throwable t) {
      fail(client, t);
      return NESTED;
    }
  }

  /**
   * After a library client's attempt; true asks the advice to run the method again (an enforced retry, the backoff
   * waited out and {@code response} closed).
   *
   * @param headers the values of {@link #rateLimitHeaders()}, or {@code null} when none were read
   * @param canceled whether the application canceled the call
   */
  public static boolean libraryExit(int client, Object call, Object response, int status, String[] headers, Throwable thrown,
      boolean canceled) {
    if (call == null) {
      return false;
    }
    if (call != NESTED && enabled(client)) {
      try {
        if (hooks.libraryFinish(call, response, status, headers, thrown, canceled)) {
          return true; // still inside the outermost call: keep the depth for the repeat
        }
      } catch (Throwable t) {
        fail(client, t);
      }
    }
    CallDepth.exit(client);
    return false;
  }

  /**
   * Before an Apache HttpClient 5 async {@code doExecute}: {@code null} (record nothing), a one-element array holding
   * {@link #NESTED}, or the call handle followed by the producer, the consumer and the callback the method is to use
   * instead of its own arguments. The three types are Apache's {@code AsyncRequestProducer}, {@code AsyncResponseConsumer}
   * and {@code FutureCallback} as the instrumented class sees them.
   */
  public static Object[] apacheAsyncEnter(Object client, Object target, Object producer, Object consumer,
      Object pushHandlerFactory, Object context, Object callback, Class<?> producerType, Class<?> consumerType,
      Class<?> callbackType) {
    HttpCallHooks h = active(APACHE_HTTPCLIENT5);
    if (h == null) {
      return null;
    }
    if (!CallDepth.enter(APACHE_HTTPCLIENT5)) {
      return new Object[] {NESTED};
    }
    try {
      Object[] call = h.apacheAsyncStart(client, target, producer, consumer, pushHandlerFactory, context, callback,
          new Class<?>[] {producerType, consumerType, callbackType});
      return call == null ? new Object[] {NESTED} : call;
    } catch (Throwable t) {
      fail(APACHE_HTTPCLIENT5, t);
      return new Object[] {NESTED};
    }
  }

  /** After that {@code doExecute} returned {@code future} (or threw): the future the application gets. */
  public static Object apacheAsyncExit(Object call, Object future, Throwable thrown) {
    if (call == null) {
      return future;
    }
    try {
      if (call != NESTED && enabled(APACHE_HTTPCLIENT5)) {
        return hooks.apacheAsyncFinish(call, future, thrown);
      }
    } catch (Throwable t) {
      fail(APACHE_HTTPCLIENT5, t);
    } finally {
      CallDepth.exit(APACHE_HTTPCLIENT5);
    }
    return future;
  }

  // ----

  private static HttpCallHooks active(int client) {
    HttpCallHooks h = hooks;
    return h != null && enabled(client) ? h : null;
  }

  /** Switches a client off after the agent's own failure, reporting it once. */
  public static void fail(int client, Throwable t) {
    if (switchOff(client)) {
      System.err.println("[hfr-agent] " + NAMES[client] + " is no longer recorded after an internal error: " + t);
    }
  }

  /** True for the one caller that switched the client off. */
  private static synchronized boolean switchOff(int client) {
    if (!enabled(client)) {
      return false;
    }
    disabled |= 1 << client;
    return true;
  }
}
