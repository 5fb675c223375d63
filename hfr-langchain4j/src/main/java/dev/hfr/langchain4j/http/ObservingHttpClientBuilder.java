package dev.hfr.langchain4j.http;

import dev.hfr.langchain4j.internal.ResponseHeaderCapture;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.http.client.sse.ServerSentEvent;
import dev.langchain4j.http.client.sse.ServerSentEventContext;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A LangChain4j {@link HttpClientBuilder} over the JDK client that keeps the response headers of failed
 * calls: a non-2xx response is thrown as a {@link ProviderHttpException} (an {@code HttpException} with
 * headers), so HFR can honour {@code Retry-After} on a 429 instead of guessing. Give it to the model
 * builder:
 *
 * <pre>{@code
 * OpenAiChatModel.builder().httpClientBuilder(ObservingHttpClientBuilder.jdk()) ...
 * }</pre>
 *
 * Streaming calls get the same treatment: a failed response reaches the streaming listener's
 * {@code onError} as a {@link ProviderHttpException} with its headers.
 */
public final class ObservingHttpClientBuilder implements HttpClientBuilder {

  private final JdkHttpClientBuilder delegate;

  private ObservingHttpClientBuilder(JdkHttpClientBuilder delegate) {
    this.delegate = delegate;
  }

  /** Over a default {@link JdkHttpClient}. */
  public static ObservingHttpClientBuilder jdk() {
    return new ObservingHttpClientBuilder(JdkHttpClient.builder());
  }

  /** Over a configured JDK client builder (its {@code java.net.http} builder is kept and wrapped). */
  public static ObservingHttpClientBuilder jdk(JdkHttpClientBuilder configured) {
    return new ObservingHttpClientBuilder(configured);
  }

  @Override
  public Duration connectTimeout() {
    return delegate.connectTimeout();
  }

  @Override
  public ObservingHttpClientBuilder connectTimeout(Duration timeout) {
    delegate.connectTimeout(timeout);
    return this;
  }

  @Override
  public Duration readTimeout() {
    return delegate.readTimeout();
  }

  @Override
  public ObservingHttpClientBuilder readTimeout(Duration timeout) {
    delegate.readTimeout(timeout);
    return this;
  }

  @Override
  public HttpClient build() {
    java.net.http.HttpClient.Builder javaBuilder =
        delegate.httpClientBuilder() != null ? delegate.httpClientBuilder() : java.net.http.HttpClient.newBuilder();
    ResponseHeaderCapture capture = new ResponseHeaderCapture(javaBuilder);
    delegate.httpClientBuilder(capture.builder());
    return new ObservingHttpClient(delegate.build(), capture);
  }

  /** Rethrows LangChain4j's header-less {@link HttpException} with the headers the capture saw. */
  private static final class ObservingHttpClient implements HttpClient {
    private final HttpClient delegate;
    private final ResponseHeaderCapture capture;

    ObservingHttpClient(HttpClient delegate, ResponseHeaderCapture capture) {
      this.delegate = delegate;
      this.capture = capture;
    }

    @Override
    public SuccessfulHttpResponse execute(HttpRequest request) {
      capture.clear();
      try {
        return delegate.execute(request);
      } catch (ProviderHttpException e) {
        throw e;
      } catch (HttpException e) {
        ProviderHttpException enriched = new ProviderHttpException(e.statusCode(), e.getMessage(), capture.lastErrorHeaders());
        enriched.setStackTrace(e.getStackTrace());
        throw enriched;
      } finally {
        capture.clear();
      }
    }

    @Override
    public void execute(HttpRequest request, ServerSentEventParser parser, ServerSentEventListener listener) {
      AtomicReference<Map<String, String>> errorHeaders = new AtomicReference<>(Map.of());
      capture.captureAsyncInto(errorHeaders::set);
      try {
        delegate.execute(request, parser, new HeaderKeepingListener(listener, errorHeaders));
      } finally {
        capture.clearAsync();
      }
    }
  }

  /** Passes every event on; a failed response's {@link HttpException} goes on with its headers. */
  private static final class HeaderKeepingListener implements ServerSentEventListener {
    private final ServerSentEventListener delegate;
    private final AtomicReference<Map<String, String>> errorHeaders;

    HeaderKeepingListener(ServerSentEventListener delegate, AtomicReference<Map<String, String>> errorHeaders) {
      this.delegate = delegate;
      this.errorHeaders = errorHeaders;
    }

    @Override
    public void onOpen(SuccessfulHttpResponse response) {
      delegate.onOpen(response);
    }

    @Override
    public void onEvent(ServerSentEvent event, ServerSentEventContext context) {
      delegate.onEvent(event, context);
    }

    @Override
    public void onEvent(ServerSentEvent event) {
      delegate.onEvent(event);
    }

    @Override
    public void onError(Throwable error) {
      if (error instanceof HttpException e && !(error instanceof ProviderHttpException)) {
        ProviderHttpException enriched = new ProviderHttpException(e.statusCode(), e.getMessage(), errorHeaders.get());
        enriched.setStackTrace(e.getStackTrace());
        delegate.onError(enriched);
        return;
      }
      delegate.onError(error);
    }

    @Override
    public void onClose() {
      delegate.onClose();
    }
  }
}
