package dev.hfr.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.bootstrap.HfrBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;

/**
 * OkHttp 4 and 5: {@code okhttp3.internal.connection.RealCall.getResponseWithInterceptorChain}, which
 * both {@code execute()} and {@code enqueue()} (on the dispatcher thread) run once per call, after the
 * application's interceptors have had the request. Nothing is added to the application's client, so
 * {@code OkHttpClient.interceptors()} is unchanged.
 */
public final class OkHttpInstrumentation implements TypeInstrumentation {

  @Override
  public int client() {
    return HfrBridge.OKHTTP;
  }

  @Override
  public List<String> classNames() {
    return List.of("okhttp3.internal.connection.RealCall");
  }

  @Override
  public List<MethodAdvice> advice() {
    // Kotlin mangles the internal function's name: getResponseWithInterceptorChain$okhttp
    return List.of(new MethodAdvice(nameStartsWith("getResponseWithInterceptorChain").and(takesArguments(0)),
        OkHttpInstrumentation.class.getName() + "$CallAdvice"));
  }

  /** Reads the method, host and key presence of the request, and the status and Retry-After of the response. */
  public static final class CallAdvice {
    private CallAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.This Object call) {
      okhttp3.Request request = ((okhttp3.Call) call).request();
      return HfrBridge.libraryEnter(HfrBridge.OKHTTP, request.method(), request.url().host(),
          request.headers().get("Idempotency-Key") != null);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object call, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
      okhttp3.Response r = (okhttp3.Response) response;
      HfrBridge.libraryExit(HfrBridge.OKHTTP, call, r == null ? 0 : r.code(),
          r == null ? null : r.headers().get("Retry-After"), thrown);
    }
  }
}
