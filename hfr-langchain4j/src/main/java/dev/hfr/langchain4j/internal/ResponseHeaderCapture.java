package dev.hfr.langchain4j.internal;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.Consumer;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * Remembers, per calling thread, the headers of the last failed (status 400 and above) response a
 * {@code java.net.http} client received. LangChain4j's JDK client turns such a response into an
 * exception that carries only status and body; the synchronous {@code send} runs on the caller's thread,
 * so the headers can be picked up there right after. A streaming call is sent with {@code sendAsync} and
 * answered on another thread: for it, the caller names a target before sending
 * ({@link #captureAsyncInto}), and the headers of a failed response are handed to that target before
 * LangChain4j's client sees the response.
 */
public final class ResponseHeaderCapture {

  private final ThreadLocal<Map<String, String>> lastErrorHeaders = new ThreadLocal<>();
  private final ThreadLocal<Consumer<Map<String, String>>> asyncTarget = new ThreadLocal<>();
  private final HttpClient.Builder builder;

  public ResponseHeaderCapture(HttpClient.Builder delegate) {
    this.builder = new CapturingBuilder(delegate);
  }

  /** The {@code java.net.http} builder to give LangChain4j's JDK client builder. */
  public HttpClient.Builder builder() {
    return builder;
  }

  /** The headers of the last failed response on this thread (empty when none). */
  public Map<String, String> lastErrorHeaders() {
    Map<String, String> h = lastErrorHeaders.get();
    return h == null ? Map.of() : h;
  }

  public void clear() {
    lastErrorHeaders.remove();
  }

  /**
   * Until {@link #clearAsync()}, an asynchronous send started on this thread hands the headers of a failed
   * response to {@code target} (on the thread the response arrives on).
   */
  public void captureAsyncInto(Consumer<Map<String, String>> target) {
    asyncTarget.set(target);
  }

  public void clearAsync() {
    asyncTarget.remove();
  }

  private void record(HttpResponse<?> response) {
    if (response.statusCode() >= 400) {
      lastErrorHeaders.set(firstValues(response));
    }
  }

  private static Map<String, String> firstValues(HttpResponse<?> response) {
    Map<String, String> first = new LinkedHashMap<>();
    response.headers().map().forEach((name, values) -> {
      if (!values.isEmpty()) {
        first.put(name, values.get(0));
      }
    });
    return first;
  }

  /** The response future, handing a failed response's headers to the target set on this thread, if any. */
  private <T> CompletableFuture<HttpResponse<T>> observed(CompletableFuture<HttpResponse<T>> response) {
    Consumer<Map<String, String>> target = asyncTarget.get();
    if (target == null) {
      return response;
    }
    return response.thenApply(r -> {
      if (r.statusCode() >= 400) {
        target.accept(firstValues(r));
      }
      return r;
    });
  }

  private final class CapturingBuilder implements HttpClient.Builder {
    private final HttpClient.Builder delegate;

    CapturingBuilder(HttpClient.Builder delegate) {
      this.delegate = delegate;
    }

    @Override public HttpClient.Builder cookieHandler(CookieHandler h) { delegate.cookieHandler(h); return this; }
    @Override public HttpClient.Builder connectTimeout(Duration d) { delegate.connectTimeout(d); return this; }
    @Override public HttpClient.Builder sslContext(SSLContext c) { delegate.sslContext(c); return this; }
    @Override public HttpClient.Builder sslParameters(SSLParameters p) { delegate.sslParameters(p); return this; }
    @Override public HttpClient.Builder executor(Executor e) { delegate.executor(e); return this; }
    @Override public HttpClient.Builder followRedirects(HttpClient.Redirect r) { delegate.followRedirects(r); return this; }
    @Override public HttpClient.Builder version(HttpClient.Version v) { delegate.version(v); return this; }
    @Override public HttpClient.Builder priority(int p) { delegate.priority(p); return this; }
    @Override public HttpClient.Builder proxy(ProxySelector s) { delegate.proxy(s); return this; }
    @Override public HttpClient.Builder authenticator(Authenticator a) { delegate.authenticator(a); return this; }

    @Override
    public HttpClient build() {
      return new CapturingClient(delegate.build());
    }
  }

  private final class CapturingClient extends HttpClient {
    private final HttpClient delegate;

    CapturingClient(HttpClient delegate) {
      this.delegate = delegate;
    }

    @Override public Optional<CookieHandler> cookieHandler() { return delegate.cookieHandler(); }
    @Override public Optional<Duration> connectTimeout() { return delegate.connectTimeout(); }
    @Override public Redirect followRedirects() { return delegate.followRedirects(); }
    @Override public Optional<ProxySelector> proxy() { return delegate.proxy(); }
    @Override public SSLContext sslContext() { return delegate.sslContext(); }
    @Override public SSLParameters sslParameters() { return delegate.sslParameters(); }
    @Override public Optional<Authenticator> authenticator() { return delegate.authenticator(); }
    @Override public Version version() { return delegate.version(); }
    @Override public Optional<Executor> executor() { return delegate.executor(); }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
        throws IOException, InterruptedException {
      HttpResponse<T> response = delegate.send(request, handler);
      record(response);
      return response;
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
      return observed(delegate.sendAsync(request, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(
        HttpRequest request, HttpResponse.BodyHandler<T> handler, HttpResponse.PushPromiseHandler<T> push) {
      return observed(delegate.sendAsync(request, handler, push));
    }
  }
}
