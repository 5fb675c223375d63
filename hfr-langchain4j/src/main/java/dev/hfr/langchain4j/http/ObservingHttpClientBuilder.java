package dev.hfr.langchain4j.http;

import dev.hfr.langchain4j.internal.ResponseHeaderCapture;
import dev.langchain4j.exception.HttpException;
import dev.langchain4j.http.client.HttpClient;
import dev.langchain4j.http.client.HttpClientBuilder;
import dev.langchain4j.http.client.HttpRequest;
import dev.langchain4j.http.client.SuccessfulHttpResponse;
import dev.langchain4j.http.client.jdk.JdkHttpClient;
import dev.langchain4j.http.client.jdk.JdkHttpClientBuilder;
import dev.langchain4j.http.client.sse.ServerSentEventListener;
import dev.langchain4j.http.client.sse.ServerSentEventParser;
import java.time.Duration;

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
 * Streaming calls are passed through unchanged.
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
      delegate.execute(request, parser, listener);
    }
  }
}
