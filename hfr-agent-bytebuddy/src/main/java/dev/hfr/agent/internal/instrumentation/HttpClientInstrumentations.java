package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.List;

/**
 * Which classes the agent instruments, by client (bridge slot), as constants. The start-up path asks only this class,
 * so that a JVM loads nothing of the weaver (Byte Buddy, the advice: {@code dev.hfr.agent.internal.weave}, in the agent
 * jar's nested weaver jar) until one of these classes is woven; every class loaded at start-up costs its CPU time
 * (docs/AGENT.md, "Start-up").
 */
public final class HttpClientInstrumentations {

  /** {@code java.net.http.HttpClient}: the facade every client the JDK builds is (5 KB to weave, the implementation 26 KB). */
  public static final String JDK_CLIENT_FACADE = "jdk.internal.net.http.HttpClientFacade";
  /** The facade's superclass, loaded before the agent registers its transformer. */
  public static final String JDK_CLIENT_API = "java.net.http.HttpClient";
  /** {@code HttpURLConnection}: the API class, whose {@code getResponseCode} is woven. */
  public static final String URL_CONNECTION_API = "java.net.HttpURLConnection";
  /** The JDK's implementation, whose {@code getInputStream} is woven (HTTPS delegates to it). */
  public static final String URL_CONNECTION_IMPLEMENTATION = "sun.net.www.protocol.http.HttpURLConnection";
  /** The JDK's URL handlers, whose {@code openConnection} creates every http and https connection. */
  public static final String HTTP_HANDLER = "sun.net.www.protocol.http.Handler";
  /** The https URL handler. */
  public static final String HTTPS_HANDLER = "sun.net.www.protocol.https.Handler";
  /** OkHttp 4 and 5: the interceptor that runs each call's network attempts, on the caller's or the dispatcher's thread. */
  public static final String OKHTTP_RETRY_INTERCEPTOR = "okhttp3.internal.http.RetryAndFollowUpInterceptor";
  /** Apache HttpClient 5 classic: the client the builders create. */
  public static final String APACHE_INTERNAL_CLIENT = "org.apache.hc.client5.http.impl.classic.InternalHttpClient";
  /** Apache HttpClient 5 classic: the minimal client. */
  public static final String APACHE_MINIMAL_CLIENT = "org.apache.hc.client5.http.impl.classic.MinimalHttpClient";

  /** The instrumented classes of each client (binary names), in bridge slot order. */
  private static final String[][] CLASS_NAMES = {
      {JDK_CLIENT_FACADE},
      {URL_CONNECTION_API, URL_CONNECTION_IMPLEMENTATION, HTTP_HANDLER, HTTPS_HANDLER},
      {OKHTTP_RETRY_INTERCEPTOR},
      {APACHE_INTERNAL_CLIENT, APACHE_MINIMAL_CLIENT}};

  private HttpClientInstrumentations() {}

  /** The classes the client in bridge slot {@code client} instruments. */
  public static List<String> classNames(int client) {
    return List.of(CLASS_NAMES[client]);
  }

  /**
   * Whether the client is part of the JDK ({@code java.net.http.HttpClient}, {@code HttpURLConnection}): its classes
   * come from the JDK's own class loaders, so the agent can load and weave them when it starts, instead of watching
   * every class load for them.
   */
  public static boolean inJdk(int client) {
    return client == HfrBridge.JDK_HTTP_CLIENT || client == HfrBridge.HTTP_URL_CONNECTION;
  }

  /**
   * Whether a JDK client's class is woven only when the first connection is opened (by a URL handler's advice), not
   * when the agent starts: the {@code HttpURLConnection} classes, whose implementation alone is 66 KB to weave, which a
   * JVM that uses another client never needs.
   */
  public static boolean wovenOnFirstConnection(String className) {
    return className.equals(URL_CONNECTION_API) || className.equals(URL_CONNECTION_IMPLEMENTATION);
  }

  /**
   * The JDK classes the client's instrumented classes are defined after (their superclasses), by binary name: loading
   * them first loads the platform class loader's reader of the runtime image too, which the agent does before it
   * registers its transformer.
   */
  public static List<String> loadedFirst(int client) {
    return client == HfrBridge.JDK_HTTP_CLIENT ? List.of(JDK_CLIENT_API) : List.of();
  }
}
