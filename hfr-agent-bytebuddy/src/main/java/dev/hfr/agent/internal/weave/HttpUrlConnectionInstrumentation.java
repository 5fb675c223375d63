package dev.hfr.agent.internal.weave;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import dev.hfr.agent.internal.instrumentation.HttpClientInstrumentations;
import java.util.List;

/**
 * {@code java.net.HttpURLConnection}: the response arrives in the first of {@code getResponseCode()} (declared by
 * {@code java.net.HttpURLConnection}) and {@code getInputStream()} (declared by the JDK's
 * {@code sun.net.www.protocol.http.HttpURLConnection}, which HTTPS connections delegate to). The JDK URL handlers'
 * {@code openConnection(URL, Proxy)}, small and woven at start-up, have the connection classes (66 KB) woven before the
 * first connection is created.
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
            ADVICE + "UrlConnectionResponseAdvice"),
        new MethodAdvice(named("openConnection").and(takesArguments(2)).and(takesArgument(1, named("java.net.Proxy")))
            .and(isDeclaredBy(named(HttpClientInstrumentations.HTTP_HANDLER).or(named(HttpClientInstrumentations.HTTPS_HANDLER)))),
            ADVICE + "UrlConnectionOpeningAdvice"));
  }
}
