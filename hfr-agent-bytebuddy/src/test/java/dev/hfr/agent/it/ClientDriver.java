package dev.hfr.agent.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.HttpURLConnection;
import java.net.URI;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.MediaType;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.RequestBody;
import okhttp3.Response;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.classic.methods.HttpUriRequestBase;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.http.io.entity.StringEntity;
import org.apache.hc.core5.util.Timeout;

/**
 * The "application" of the agent tests: a plain program, run in its own JVM with or without the agent,
 * that drives every instrumented client against a {@link FaultServer} and prints exactly what it saw,
 * one line per request ({@code client scenario status=... body=...} or {@code ... error=ExceptionClass}).
 * The tests compare these lines with and without the agent.
 *
 * <p>Commands: {@code matrix BASE} (one request per client to warm up, then every client × every scenario);
 * {@code attach-matrix BASE} (the warm-up, then prints {@code READY}, waits for a line on stdin, runs the matrix, prints
 * {@code DONE} and waits for another line); {@code requests BASE METHOD:PATH[:KEY]...} (JDK HttpClient
 * requests, one after the other, an {@code Idempotency-Key} header when KEY is given).
 */
public final class ClientDriver {

  static final List<String> SCENARIOS =
      List.of("ok", "rate", "error", "unavailable", "overloaded", "context", "unauthorized", "forbidden", "hang");
  static final List<String> CLIENTS =
      List.of("jdk-send", "jdk-async", "url-connection", "okhttp", "okhttp-async", "apache5", "apache5-async");
  static final int TIMEOUT_MILLIS = 2000;
  /**
   * The first request of each client loads its classes (and, with the agent, starts the recording), which
   * on a busy machine can take longer than {@link #TIMEOUT_MILLIS}: the unprinted warm-up requests wait longer.
   */
  static final int WARM_UP_TIMEOUT_MILLIS = 60_000;

  private final String base;
  private final HttpClient jdk = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
  private final OkHttpClient okhttp = new OkHttpClient.Builder().readTimeout(Duration.ofMillis(TIMEOUT_MILLIS)).build();
  private final OkHttpClient okhttpWarmUp = okhttp.newBuilder().readTimeout(Duration.ofMillis(WARM_UP_TIMEOUT_MILLIS)).build();
  private int timeoutMillis = TIMEOUT_MILLIS;
  private final CloseableHttpClient apache = HttpClients.custom()
      .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(TIMEOUT_MILLIS)).build())
      .build();
  /**
   * For the enforcement scenarios: Apache's own retry of a 503 or 429 (once, after a second) would come on top of the
   * agent's (docs/AGENT.md, Enforcement), so the counts would say nothing about the agent's.
   */
  private final CloseableHttpClient apacheWithoutRetries = HttpClients.custom().disableAutomaticRetries()
      .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(TIMEOUT_MILLIS)).build())
      .build();

  private final CloseableHttpAsyncClient apacheAsync = started(HttpAsyncClients.custom()
      .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(TIMEOUT_MILLIS)).build())
      .build());
  /** Without Apache's own retries, like {@link #apacheWithoutRetries}. */
  private final CloseableHttpAsyncClient apacheAsyncWithoutRetries = started(HttpAsyncClients.custom().disableAutomaticRetries()
      .setDefaultRequestConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(TIMEOUT_MILLIS)).build())
      .build());

  private ClientDriver(String base) {
    this.base = base;
  }

  private static CloseableHttpAsyncClient started(CloseableHttpAsyncClient client) {
    client.start();
    return client;
  }

  public static void main(String[] args) throws Exception {
    ClientDriver driver = new ClientDriver(args[1]);
    BufferedReader stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    switch (args[0]) {
      case "matrix" -> {
        driver.warmUp();
        driver.matrix();
      }
      case "attach-matrix" -> {
        driver.warmUp(); // loads every client class: the agent will have to retransform them
        System.out.println("READY");
        System.out.flush();
        stdin.readLine();
        driver.matrix();
        System.out.println("DONE");
        System.out.flush();
        stdin.readLine();
      }
      case "requests" -> {
        // Unprinted and unasserted, like warmUp(): the JVM's first send loads the JDK client's classes and
        // starts the agent's recording, which on a busy machine can take longer than the request timeout;
        // the GET that is to fail twice with 503 would then time out instead (T3) and the counts would not add up.
        driver.timeoutMillis = WARM_UP_TIMEOUT_MILLIS;
        driver.jdkSend(jdkRequest(args[1], "GET:/ok"));
        driver.timeoutMillis = TIMEOUT_MILLIS;
        for (int i = 2; i < args.length; i++) {
          System.out.println(driver.jdkSend(jdkRequest(args[1], args[i])));
        }
      }
      case "client-requests" -> {
        // client-requests BASE CLIENT SPEC...: each SPEC (METHOD:/path[:idempotency-key]) through one client, printed,
        // each followed by two unprinted GET /ok, so that the host's breaker never sees a majority of failures
        String client = args[2];
        driver.timeoutMillis = WARM_UP_TIMEOUT_MILLIS;
        driver.send(client, "GET:/ok");
        driver.timeoutMillis = TIMEOUT_MILLIS;
        for (int i = 3; i < args.length; i++) {
          System.out.println(driver.send(client, args[i]));
          driver.send(client, "GET:/ok");
          driver.send(client, "GET:/ok");
        }
      }
      default -> throw new IllegalArgumentException("unknown command " + args[0]);
    }
    System.out.flush();
    System.exit(0); // OkHttp's dispatcher threads would keep the JVM up for a minute
  }

  /**
   * One unprinted request per client first: a client's first request loads its classes, which on a busy
   * machine can take longer than the timeouts the scenarios test.
   */
  private void warmUp() {
    timeoutMillis = WARM_UP_TIMEOUT_MILLIS;
    for (String client : CLIENTS) {
      request(client, "ok");
    }
    timeoutMillis = TIMEOUT_MILLIS;
  }

  /** {@code GET:/path}, {@code POST:/path} or {@code POST:/path:idempotency-key} as a JDK HttpClient request. */
  private static HttpRequest.Builder jdkRequest(String base, String spec) {
    String[] parts = spec.split(":");
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + parts[1]));
    if (parts[0].equals("POST")) {
      request.POST(HttpRequest.BodyPublishers.ofString("{}"));
    } else if (!parts[0].equals("GET")) {
      request.method(parts[0], HttpRequest.BodyPublishers.noBody());
    }
    if (parts.length > 2) {
      request.header("Idempotency-Key", parts[2]);
    }
    return request;
  }

  /** One request, {@code METHOD:/path[:idempotency-key]}, through {@code client} (a POST sends a small body). */
  private String send(String client, String spec) {
    String[] parts = spec.split(":");
    String url = base + parts[1];
    String key = parts.length > 2 ? parts[2] : null;
    try {
      return switch (client) {
        case "jdk-send" -> jdkSend(jdkRequest(base, spec));
        case "jdk-async" -> {
          HttpRequest request = jdkRequest(base, spec).timeout(Duration.ofMillis(timeoutMillis)).build();
          HttpResponse<String> r = jdk.sendAsync(request, HttpResponse.BodyHandlers.ofString())
              .get(timeoutMillis + 8000L, TimeUnit.MILLISECONDS);
          yield seen(r.statusCode(), r.body());
        }
        case "okhttp", "okhttp-async" -> {
          Request.Builder request = new Request.Builder().url(url)
              .method(parts[0], parts[0].equals("POST") ? RequestBody.create("{}", MediaType.get("application/json")) : null);
          if (key != null) {
            request.header("Idempotency-Key", key);
          }
          yield client.equals("okhttp") ? okhttp(request.build()) : okhttpAsync(request.build());
        }
        case "apache5" -> {
          HttpUriRequestBase request = new HttpUriRequestBase(parts[0], URI.create(url));
          if (parts[0].equals("POST")) {
            request.setEntity(new StringEntity("{}", ContentType.APPLICATION_JSON));
          }
          if (key != null) {
            request.setHeader("Idempotency-Key", key);
          }
          request.setConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(timeoutMillis)).build());
          yield apacheWithoutRetries.execute(request,
              r -> seen(r.getCode(), r.getEntity() == null ? "" : EntityUtils.toString(r.getEntity())));
        }
        case "apache5-async" -> {
          SimpleRequestBuilder request = SimpleRequestBuilder.create(parts[0]).setUri(url);
          if (parts[0].equals("POST")) {
            request.setBody("{}", org.apache.hc.core5.http.ContentType.APPLICATION_JSON);
          }
          if (key != null) {
            request.setHeader("Idempotency-Key", key);
          }
          yield apacheAsync(apacheAsyncWithoutRetries, request.build());
        }
        default -> throw new IllegalArgumentException(client);
      };
    } catch (ExecutionException e) {
      return "error=" + e.getCause().getClass().getName();
    } catch (Exception e) {
      return "error=" + e.getClass().getName();
    }
  }

  private void matrix() {
    for (String client : CLIENTS) {
      for (String scenario : SCENARIOS) {
        System.out.println(client + " " + scenario + " " + request(client, scenario));
      }
    }
  }

  private String request(String client, String scenario) {
    String url = base + "/" + scenario;
    try {
      return switch (client) {
        case "jdk-send" -> jdkSend(HttpRequest.newBuilder(URI.create(url)).GET());
        case "jdk-async" -> jdkAsync(url);
        case "url-connection" -> urlConnection(url);
        case "okhttp" -> okhttp(url);
        case "okhttp-async" -> okhttpAsync(url);
        case "apache5" -> apache(url);
        case "apache5-async" -> apacheAsync(apacheAsync, SimpleRequestBuilder.get(url).build());
        default -> throw new IllegalArgumentException(client);
      };
    } catch (ExecutionException e) {
      return "error=" + e.getCause().getClass().getName();
    } catch (Exception e) {
      return "error=" + e.getClass().getName();
    }
  }

  private String jdkSend(HttpRequest.Builder request) {
    try {
      HttpResponse<String> r = jdk.send(request.timeout(Duration.ofMillis(timeoutMillis)).build(), HttpResponse.BodyHandlers.ofString());
      return seen(r.statusCode(), r.body());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "error=" + e.getClass().getName();
    } catch (IOException e) {
      return "error=" + e.getClass().getName();
    }
  }

  private String jdkAsync(String url) throws Exception {
    HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofMillis(timeoutMillis)).GET().build();
    HttpResponse<String> r = jdk.sendAsync(request, HttpResponse.BodyHandlers.ofString()).get(timeoutMillis + 8000L, TimeUnit.MILLISECONDS);
    return seen(r.statusCode(), r.body());
  }

  private String urlConnection(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    c.setConnectTimeout(10_000);
    c.setReadTimeout(timeoutMillis);
    int status = c.getResponseCode();
    try (InputStream body = status < 400 ? c.getInputStream() : c.getErrorStream()) {
      return seen(status, body == null ? "" : new String(body.readAllBytes(), StandardCharsets.UTF_8));
    }
  }

  private String okhttp(String url) throws IOException {
    return okhttp(new Request.Builder().url(url).build());
  }

  private String okhttp(Request request) throws IOException {
    try (Response r = okhttpClient().newCall(request).execute()) {
      return seen(r.code(), r.body().string());
    }
  }

  private String okhttpAsync(String url) throws Exception {
    return okhttpAsync(new Request.Builder().url(url).build());
  }

  private String okhttpAsync(Request request) throws Exception {
    CompletableFuture<String> seen = new CompletableFuture<>();
    okhttpClient().newCall(request).enqueue(new Callback() {
      @Override
      public void onResponse(Call call, Response response) {
        try (response) {
          seen.complete(seen(response.code(), response.body().string()));
        } catch (IOException e) {
          seen.complete("error=" + e.getClass().getName());
        }
      }

      @Override
      public void onFailure(Call call, IOException e) {
        seen.complete("error=" + e.getClass().getName());
      }
    });
    return seen.get(timeoutMillis + 8000L, TimeUnit.MILLISECONDS);
  }

  private OkHttpClient okhttpClient() {
    return timeoutMillis == TIMEOUT_MILLIS ? okhttp : okhttpWarmUp;
  }

  private String apache(String url) throws IOException {
    HttpGet get = new HttpGet(url);
    get.setConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(timeoutMillis)).build());
    return apache.execute(get, r -> seen(r.getCode(), r.getEntity() == null ? "" : EntityUtils.toString(r.getEntity())));
  }

  private String apacheAsync(CloseableHttpAsyncClient client, SimpleHttpRequest request) throws Exception {
    request.setConfig(RequestConfig.custom().setResponseTimeout(Timeout.ofMilliseconds(timeoutMillis)).build());
    SimpleHttpResponse r = client.execute(request, null).get(timeoutMillis + 8000L, TimeUnit.MILLISECONDS);
    return seen(r.getCode(), r.getBodyText() == null ? "" : r.getBodyText());
  }

  private static String seen(int status, String body) {
    return "status=" + status + " body=" + body;
  }
}
