package dev.hfr.mcp.internal;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * A JDK {@link HttpClient} that hands every failed response head (status ≥ 400) of a request carrying
 * {@link HttpFailureCapture#HEADER} to that capture, then behaves exactly like the client it wraps.
 */
final class RecordingHttpClient extends HttpClient {

  private final HttpClient delegate;

  RecordingHttpClient(HttpClient delegate) {
    this.delegate = delegate;
  }

  private static <T> HttpResponse.BodyHandler<T> recording(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    HttpFailureCapture capture = HttpFailureCapture.find(request.headers().firstValue(HttpFailureCapture.HEADER).orElse(null));
    if (capture == null) {
      return handler;
    }
    return info -> {
      if (info.statusCode() >= 400) {
        capture.record(info.statusCode(), info.headers());
      }
      return handler.apply(info);
    };
  }

  @Override
  public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
      throws IOException, InterruptedException {
    return delegate.send(request, recording(request, handler));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
    return delegate.sendAsync(request, recording(request, handler));
  }

  @Override
  public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
      HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
    return delegate.sendAsync(request, recording(request, handler), pushPromiseHandler);
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
}
