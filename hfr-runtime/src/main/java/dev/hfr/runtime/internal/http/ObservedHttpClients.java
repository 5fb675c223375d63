package dev.hfr.runtime.internal.http;

import java.io.IOException;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * JDK HTTP clients that show their failed responses to a {@link FailedResponseListener}, for the adapters that
 * hand a library an {@link HttpClient.Builder} (LangChain4j's JDK client, the MCP SDK's streamable HTTP
 * transport). Every setting goes to the JDK builder; the built client behaves exactly like the JDK's, for
 * {@code send} and {@code sendAsync} alike: the listener sees the response head through the request's body
 * handler, so it sees it even when the library's own handler fails the request on that status.
 */
public final class ObservedHttpClients {

  private ObservedHttpClients() {}

  /** A builder whose clients are {@code delegate}'s clients, observed by {@code listener}. */
  public static <C> HttpClient.Builder builder(HttpClient.Builder delegate, FailedResponseListener<C> listener) {
    return new ObservedBuilder<>(Objects.requireNonNull(delegate, "delegate"), Objects.requireNonNull(listener, "listener"));
  }

  private static final class ObservedBuilder<C> implements HttpClient.Builder {
    private final HttpClient.Builder delegate;
    private final FailedResponseListener<C> listener;

    ObservedBuilder(HttpClient.Builder delegate, FailedResponseListener<C> listener) {
      this.delegate = delegate;
      this.listener = listener;
    }

    @Override public HttpClient.Builder cookieHandler(CookieHandler h) { delegate.cookieHandler(h); return this; }
    @Override public HttpClient.Builder connectTimeout(Duration d) { delegate.connectTimeout(d); return this; }
    @Override public HttpClient.Builder sslContext(SSLContext c) { delegate.sslContext(c); return this; }
    @Override public HttpClient.Builder sslParameters(SSLParameters p) { delegate.sslParameters(p); return this; }
    @Override public HttpClient.Builder executor(Executor e) { delegate.executor(e); return this; }
    @Override public HttpClient.Builder followRedirects(HttpClient.Redirect r) { delegate.followRedirects(r); return this; }
    @Override public HttpClient.Builder version(HttpClient.Version v) { delegate.version(v); return this; }
    @Override public HttpClient.Builder priority(int p) { delegate.priority(p); return this; }
    @Override public HttpClient.Builder proxy(ProxySelector p) { delegate.proxy(p); return this; }
    @Override public HttpClient.Builder authenticator(Authenticator a) { delegate.authenticator(a); return this; }

    @Override
    public HttpClient build() {
      return new ObservedClient<>(delegate.build(), listener);
    }
  }

  private static final class ObservedClient<C> extends HttpClient {
    private final HttpClient delegate;
    private final FailedResponseListener<C> listener;

    ObservedClient(HttpClient delegate, FailedResponseListener<C> listener) {
      this.delegate = delegate;
      this.listener = listener;
    }

    /** The sender's body handler, preceded by the listener for a failed response head. */
    private <T> HttpResponse.BodyHandler<T> observed(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
      C target = listener.onSend(request);
      if (target == null) {
        return handler;
      }
      return info -> {
        if (info.statusCode() >= 400) {
          listener.onFailedResponse(target, info.statusCode(), info.headers());
        }
        return handler.apply(info);
      };
    }

    @Override
    public <T> HttpResponse<T> send(HttpRequest request, HttpResponse.BodyHandler<T> handler)
        throws IOException, InterruptedException {
      return delegate.send(request, observed(request, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler) {
      return delegate.sendAsync(request, observed(request, handler));
    }

    @Override
    public <T> CompletableFuture<HttpResponse<T>> sendAsync(HttpRequest request, HttpResponse.BodyHandler<T> handler,
        HttpResponse.PushPromiseHandler<T> pushPromiseHandler) {
      return delegate.sendAsync(request, observed(request, handler), pushPromiseHandler);
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
}
