package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.List;

/**
 * Which classes the agent instruments, by client (bridge slot), as constants. The start-up path and the agent's
 * transformer ask only this class, so that a JVM loads nothing of the weaver (Byte Buddy, the advice:
 * {@code dev.hfr.agent.internal.weave}, in the agent jar's nested weaver jar) until one of these classes is being loaded.
 */
public final class HttpClientInstrumentations {

  /** {@code java.net.http.HttpClient}: the facade every client the JDK builds is (5 KB to weave, the implementation 26 KB). */
  public static final String JDK_CLIENT_FACADE = "jdk.internal.net.http.HttpClientFacade";
  /** {@code HttpURLConnection}: the API class, whose {@code getResponseCode} is woven. */
  public static final String URL_CONNECTION_API = "java.net.HttpURLConnection";
  /** The JDK's implementation, whose {@code getInputStream} is woven (HTTPS delegates to it). */
  public static final String URL_CONNECTION_IMPLEMENTATION = "sun.net.www.protocol.http.HttpURLConnection";
  /** OkHttp 4 and 5: the interceptor that runs each call's network attempts, on the caller's or the dispatcher's thread. */
  public static final String OKHTTP_RETRY_INTERCEPTOR = "okhttp3.internal.http.RetryAndFollowUpInterceptor";
  /** Apache HttpClient 5 classic: the client the builders create. */
  public static final String APACHE_INTERNAL_CLIENT = "org.apache.hc.client5.http.impl.classic.InternalHttpClient";
  /** Apache HttpClient 5 classic: the minimal client. */
  public static final String APACHE_MINIMAL_CLIENT = "org.apache.hc.client5.http.impl.classic.MinimalHttpClient";
  /** Apache HttpClient 5 async: the base of the clients the builders create (HTTP/1.1 and HTTP/2). */
  public static final String APACHE_ASYNC_CLIENT = "org.apache.hc.client5.http.impl.async.InternalAbstractHttpAsyncClient";
  /** Apache HttpClient 5 async: the base of the minimal clients. */
  public static final String APACHE_MINIMAL_ASYNC_CLIENT = "org.apache.hc.client5.http.impl.async.AbstractMinimalHttpAsyncClientBase";

  /** The instrumented classes of each client (binary names), in bridge slot order. */
  private static final String[][] CLASS_NAMES = {
      {JDK_CLIENT_FACADE},
      {URL_CONNECTION_API, URL_CONNECTION_IMPLEMENTATION},
      {OKHTTP_RETRY_INTERCEPTOR},
      {APACHE_INTERNAL_CLIENT, APACHE_MINIMAL_CLIENT, APACHE_ASYNC_CLIENT, APACHE_MINIMAL_ASYNC_CLIENT}};

  private HttpClientInstrumentations() {}

  /** The classes the client in bridge slot {@code client} instruments. */
  public static List<String> classNames(int client) {
    return List.of(CLASS_NAMES[client]);
  }

  /**
   * Whether the client is part of the JDK ({@code java.net.http.HttpClient}, {@code HttpURLConnection}): its classes
   * come from the JDK's own class loaders, so the agent's transformer can be removed once they are all woven, unless it
   * watches for a library's.
   */
  public static boolean inJdk(int client) {
    return client == HfrBridge.JDK_HTTP_CLIENT || client == HfrBridge.HTTP_URL_CONNECTION;
  }
}
