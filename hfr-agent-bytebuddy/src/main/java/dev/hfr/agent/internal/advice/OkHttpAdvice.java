package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;

/**
 * Around OkHttp's {@code RetryAndFollowUpInterceptor.intercept(Chain)}, which every call runs once after the
 * application's interceptors, on the caller's thread for {@code execute()} and on the dispatcher's for
 * {@code enqueue()}. Nothing is added to the application's {@code OkHttpClient}. Running the method again (an enforced
 * retry) is what OkHttp's own retry does: a new exchange on the same chain, once the earlier response is closed.
 */
public final class OkHttpAdvice {

  private OkHttpAdvice() {}

  /** Reads the method, host and key presence of the request. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.Argument(0) Object chain) {
    okhttp3.Request request = ((okhttp3.Interceptor.Chain) chain).request();
    okhttp3.RequestBody body = request.body();
    return HfrBridge.libraryEnter(HfrBridge.OKHTTP, request.method(), request.url().host(),
        request.header("Idempotency-Key") != null, body == null || !body.isOneShot());
  }

  /** Records the attempt; true runs the interceptor again. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class, repeatOn = Advice.OnNonDefaultValue.class)
  public static boolean exit(@Advice.Enter Object call, @Advice.Argument(0) Object chain, @Advice.Return Object response,
      @Advice.Thrown Throwable thrown) {
    okhttp3.Response r = (okhttp3.Response) response;
    String[] headers = null;
    if (r != null && r.code() >= 400) {
      String[] names = HfrBridge.rateLimitHeaders();
      headers = new String[names.length];
      for (int i = 0; i < names.length; i++) {
        headers[i] = r.header(names[i]);
      }
    }
    return HfrBridge.libraryExit(HfrBridge.OKHTTP, call, response, r == null ? 0 : r.code(), headers, thrown,
        ((okhttp3.Interceptor.Chain) chain).call().isCanceled());
  }
}
