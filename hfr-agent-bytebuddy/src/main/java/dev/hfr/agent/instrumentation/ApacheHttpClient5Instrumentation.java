package dev.hfr.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.bootstrap.HfrBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;

/**
 * Apache HttpClient 5 classic: {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of the two
 * clients the builders create ({@code InternalHttpClient}, {@code MinimalHttpClient}); every
 * {@code CloseableHttpClient.execute} overload, with or without a response handler, ends there.
 */
public final class ApacheHttpClient5Instrumentation implements TypeInstrumentation {

  @Override
  public int client() {
    return HfrBridge.APACHE_HTTPCLIENT5;
  }

  @Override
  public List<String> classNames() {
    return List.of("org.apache.hc.client5.http.impl.classic.InternalHttpClient",
        "org.apache.hc.client5.http.impl.classic.MinimalHttpClient");
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(new MethodAdvice(named("doExecute").and(takesArguments(3)), ApacheHttpClient5Instrumentation.class.getName() + "$ExecuteAdvice"));
  }

  /** Reads the method, host and key presence of the request, and the status and Retry-After of the response. */
  public static final class ExecuteAdvice {
    private ExecuteAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(0) Object target, @Advice.Argument(1) Object request) {
      org.apache.hc.core5.http.ClassicHttpRequest r = (org.apache.hc.core5.http.ClassicHttpRequest) request;
      String host = target != null
          ? ((org.apache.hc.core5.http.HttpHost) target).getHostName()
          : r.getAuthority() != null ? r.getAuthority().getHostName() : null;
      return HfrBridge.libraryEnter(HfrBridge.APACHE_HTTPCLIENT5, r.getMethod(), host, r.containsHeader("Idempotency-Key"));
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object call, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
      org.apache.hc.core5.http.HttpResponse r = (org.apache.hc.core5.http.HttpResponse) response;
      org.apache.hc.core5.http.Header retryAfter = r == null ? null : r.getFirstHeader("Retry-After");
      HfrBridge.libraryExit(HfrBridge.APACHE_HTTPCLIENT5, call, r == null ? 0 : r.getCode(),
          retryAfter == null ? null : retryAfter.getValue(), thrown);
    }
  }
}
