package dev.hfr.agent.it;

import java.io.File;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.URLClassLoader;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The "application" of {@link WatchIT}: one GET with the JDK client, one with {@code HttpURLConnection}, then one
 * with OkHttp, which it reaches only by reflection so that it can run without OkHttp on its class path. Prints one
 * line per request ({@code jdk status=200}, {@code url-connection status=200}, {@code okhttp status=200 loader=...}).
 *
 * <p>Arguments: {@code BASE classpath} (OkHttp from the class path) or {@code BASE JAR...} (OkHttp loaded after
 * start-up by a {@link URLClassLoader} of its own over those jars, the way a plugin system or an application
 * server loads a library).
 */
public final class LateClientDriver {

  private LateClientDriver() {}

  public static void main(String[] args) throws Exception {
    String url = args[0] + "/ok";
    HttpClient jdk = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    HttpResponse<String> r = jdk.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build(),
        HttpResponse.BodyHandlers.ofString());
    System.out.println("jdk status=" + r.statusCode());
    HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
    connection.setReadTimeout(60_000);
    System.out.println("url-connection status=" + connection.getResponseCode());
    connection.getInputStream().close();

    ClassLoader okhttpLoader = args[1].equals("classpath") ? LateClientDriver.class.getClassLoader() : jars(args);
    System.out.println("okhttp status=" + okhttpGet(okhttpLoader, url) + " loader=" + okhttpLoader.getName());
    System.out.flush();
    System.exit(0); // OkHttp's connection pool threads would keep the JVM up for a minute
  }

  private static ClassLoader jars(String[] args) throws Exception {
    List<URL> urls = new ArrayList<>();
    for (int i = 1; i < args.length; i++) {
      urls.add(new File(args[i]).toURI().toURL());
    }
    return new URLClassLoader("late-okhttp", urls.toArray(new URL[0]), ClassLoader.getPlatformClassLoader());
  }

  /** {@code new OkHttpClient().newCall(new Request.Builder().url(url).build()).execute().code()}, by reflection. */
  private static int okhttpGet(ClassLoader loader, String url) throws Exception {
    Object client = loader.loadClass("okhttp3.OkHttpClient").getConstructor().newInstance();
    Class<?> builderClass = loader.loadClass("okhttp3.Request$Builder");
    Object builder = builderClass.getConstructor().newInstance();
    builderClass.getMethod("url", String.class).invoke(builder, url);
    Object request = builderClass.getMethod("build").invoke(builder);
    Class<?> requestClass = loader.loadClass("okhttp3.Request");
    Object call = client.getClass().getMethod("newCall", requestClass).invoke(client, request);
    Object response = loader.loadClass("okhttp3.Call").getMethod("execute").invoke(call);
    try (AutoCloseable closing = (AutoCloseable) response) {
      return (int) response.getClass().getMethod("code").invoke(response);
    }
  }
}
