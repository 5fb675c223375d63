package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;

/**
 * Around Apache HttpClient 5 classic's {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of the clients the
 * builders create, where every {@code CloseableHttpClient.execute} overload ends. Running it again (an enforced retry)
 * executes the same request anew, once the earlier response is closed; a request whose entity cannot be repeated is
 * never retried.
 */
public final class ApacheClassicAdvice {

  private ApacheClassicAdvice() {}

  /** Reads the method, host and key presence of the request. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.Argument(0) Object target, @Advice.Argument(1) Object request) {
    org.apache.hc.core5.http.ClassicHttpRequest r = (org.apache.hc.core5.http.ClassicHttpRequest) request;
    String host = target != null
        ? ((org.apache.hc.core5.http.HttpHost) target).getHostName()
        : r.getAuthority() != null ? r.getAuthority().getHostName() : null;
    org.apache.hc.core5.http.HttpEntity entity = r.getEntity();
    return HfrBridge.libraryEnter(HfrBridge.APACHE_HTTPCLIENT5, r.getMethod(), host, r.containsHeader("Idempotency-Key"),
        entity == null || entity.isRepeatable());
  }

  /** Records the attempt; true executes the request again. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class, repeatOn = Advice.OnNonDefaultValue.class)
  public static boolean exit(@Advice.Enter Object call, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
    org.apache.hc.core5.http.HttpResponse r = (org.apache.hc.core5.http.HttpResponse) response;
    String[] headers = null;
    if (r != null && r.getCode() >= 400) {
      String[] names = HfrBridge.rateLimitHeaders();
      headers = new String[names.length];
      for (int i = 0; i < names.length; i++) {
        org.apache.hc.core5.http.Header header = r.getFirstHeader(names[i]);
        headers[i] = header == null ? null : header.getValue();
      }
    }
    return HfrBridge.libraryExit(HfrBridge.APACHE_HTTPCLIENT5, call, response, r == null ? 0 : r.getCode(), headers, thrown,
        false);
  }
}
