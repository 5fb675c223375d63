package dev.hfr.agent.internal.weave;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.List;

/**
 * OkHttp 4 and 5: {@code okhttp3.internal.http.RetryAndFollowUpInterceptor.intercept(Chain)}, which both
 * {@code execute()} and {@code enqueue()} (on the dispatcher thread) run once per call, after the application's
 * interceptors have had the request. Nothing is added to the application's client, so
 * {@code OkHttpClient.interceptors()} is unchanged.
 */
final class OkHttpInstrumentation implements TypeInstrumentation {

  @Override
  public int client() {
    return HfrBridge.OKHTTP;
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(new MethodAdvice(named("intercept").and(takesArguments(1)), ADVICE + "OkHttpAdvice"));
  }
}
