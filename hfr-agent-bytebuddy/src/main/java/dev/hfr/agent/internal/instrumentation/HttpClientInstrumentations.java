package dev.hfr.agent.internal.instrumentation;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.weave.MethodHook;
import java.util.List;

/**
 * Everything the agent instruments: one {@link TypeInstrumentation} per HTTP client, by bridge slot.
 *
 * <p>The start-up path asks only {@link #classNames(int)}, which answers from constants, so that a JVM
 * loads no instrumentation (and no hook) class until one of their classes appears, and then only that
 * client's ({@link #hooks(int)}); every class loaded from the agent jar at start-up costs its CPU time
 * (docs/AGENT.md, "Start-up").
 */
public final class HttpClientInstrumentations {

  /** The instrumented classes of each client (binary names), in bridge slot order. */
  private static final String[][] CLASS_NAMES = {
      {JdkHttpClientInstrumentation.CLIENT_FACADE},
      {HttpUrlConnectionInstrumentation.API, HttpUrlConnectionInstrumentation.JDK_IMPLEMENTATION,
          HttpUrlConnectionInstrumentation.HTTP_HANDLER, HttpUrlConnectionInstrumentation.HTTPS_HANDLER},
      {OkHttpInstrumentation.REAL_CALL},
      {ApacheHttpClient5Instrumentation.INTERNAL_CLIENT, ApacheHttpClient5Instrumentation.MINIMAL_CLIENT}};

  private HttpClientInstrumentations() {}

  /** The classes the client in bridge slot {@code client} instruments: {@link TypeInstrumentation#classNames()} without loading it. */
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
   * Whether a JDK client's class is woven only when the first connection is opened (by a URL handler's hook), not when
   * the agent starts: the {@code HttpURLConnection} classes, whose implementation alone is 66 KB to weave, which a JVM
   * that uses another client never needs.
   */
  public static boolean wovenOnFirstConnection(String className) {
    return className.equals(HttpUrlConnectionInstrumentation.API) || className.equals(HttpUrlConnectionInstrumentation.JDK_IMPLEMENTATION);
  }

  /**
   * The JDK classes the client's instrumented classes are defined after (their superclasses), by binary name: loading them
   * first loads the platform class loader's reader of the runtime image too, which the agent does before it registers its
   * transformer.
   */
  public static List<String> loadedFirst(int client) {
    return client == HfrBridge.JDK_HTTP_CLIENT ? List.of(JdkHttpClientInstrumentation.CLIENT_API) : List.of();
  }

  /** The hooks of the client in bridge slot {@code client}: {@link TypeInstrumentation#hooks()}. */
  public static List<MethodHook> hooks(int client) {
    return switch (client) {
      case HfrBridge.JDK_HTTP_CLIENT -> new JdkHttpClientInstrumentation().hooks();
      case HfrBridge.HTTP_URL_CONNECTION -> new HttpUrlConnectionInstrumentation().hooks();
      case HfrBridge.OKHTTP -> new OkHttpInstrumentation().hooks();
      case HfrBridge.APACHE_HTTPCLIENT5 -> new ApacheHttpClient5Instrumentation().hooks();
      default -> throw new IllegalArgumentException("no client in slot " + client);
    };
  }
}
