package dev.hfr.agent.internal.weave;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import java.util.List;

/**
 * {@code java.net.HttpURLConnection}: the response arrives in the first of {@code getResponseCode()} (declared by
 * {@code java.net.HttpURLConnection}) and {@code getInputStream()} (declared by the JDK's
 * {@code sun.net.www.protocol.http.HttpURLConnection}, which HTTPS connections delegate to). Both classes are woven
 * when they load, which a JVM that never opens such a connection never does.
 */
final class HttpUrlConnectionInstrumentation implements TypeInstrumentation {

  @Override
  public int client() {
    return HfrBridge.HTTP_URL_CONNECTION;
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(
        new MethodAdvice(named("getResponseCode").and(takesArguments(0))
            .and(isDeclaredBy(named(HttpClientInstrumentations.URL_CONNECTION_API))), ADVICE + "UrlConnectionResponseAdvice"),
        new MethodAdvice(named("getInputStream").and(takesArguments(0))
            .and(isDeclaredBy(named(HttpClientInstrumentations.URL_CONNECTION_IMPLEMENTATION))),
            ADVICE + "UrlConnectionResponseAdvice"));
  }
}
