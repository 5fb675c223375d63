package dev.hfr.agent.internal.weave;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.List;

/**
 * Apache HttpClient 5. Classic: {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of the two clients the
 * builders create ({@code InternalHttpClient}, {@code MinimalHttpClient}); every {@code CloseableHttpClient.execute}
 * overload, with or without a response handler, ends there. Async: {@code doExecute(HttpHost, AsyncRequestProducer,
 * AsyncResponseConsumer, HandlerFactory, HttpContext, FutureCallback)} of the two bases of every async client
 * ({@code InternalAbstractHttpAsyncClient}, {@code AbstractMinimalHttpAsyncClientBase}); every
 * {@code CloseableHttpAsyncClient.execute} overload that takes a request (a {@code SimpleHttpRequest} or a producer)
 * ends there.
 */
final class ApacheHttpClient5Instrumentation implements TypeInstrumentation {

  @Override
  public int client() {
    return HfrBridge.APACHE_HTTPCLIENT5;
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(new MethodAdvice(named("doExecute").and(takesArguments(3)), ADVICE + "ApacheClassicAdvice"),
        new MethodAdvice(named("doExecute").and(takesArguments(6)), ADVICE + "ApacheAsyncAdvice"));
  }
}
