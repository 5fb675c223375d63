package dev.hfr.mcp.internal;

import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;

/**
 * An {@link HttpClient.Builder} for the SDK's streamable HTTP transport that builds a
 * {@link RecordingHttpClient} around the JDK client. Every setting goes to the JDK builder.
 */
public final class RecordingHttpClientBuilder implements HttpClient.Builder {

  private final HttpClient.Builder delegate;

  /** The SDK's own default: HTTP/1.1. */
  public RecordingHttpClientBuilder() {
    this(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1));
  }

  public RecordingHttpClientBuilder(HttpClient.Builder delegate) {
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
  @Override public HttpClient.Builder proxy(ProxySelector p) { delegate.proxy(p); return this; }
  @Override public HttpClient.Builder authenticator(Authenticator a) { delegate.authenticator(a); return this; }

  @Override
  public HttpClient build() {
    return new RecordingHttpClient(delegate.build());
  }
}
