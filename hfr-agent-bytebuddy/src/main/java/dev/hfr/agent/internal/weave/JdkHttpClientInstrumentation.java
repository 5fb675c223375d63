package dev.hfr.agent.internal.weave;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.List;

/**
 * {@code java.net.http.HttpClient}: every client the JDK builds ({@code HttpClient.newHttpClient()},
 * {@code HttpClient.newBuilder().build()}) is a {@code jdk.internal.net.http.HttpClientFacade}, whose {@code send} and
 * {@code sendAsync} hand the call to {@code HttpClientImpl}. The facade is what is woven: 5 KB instead of the
 * implementation's 26 KB (36 KB on JDK 25). {@code send} is recorded when it returns or throws, and may be repeated
 * there under enforcement; every {@code sendAsync} overload is recorded when its future completes.
 */
final class JdkHttpClientInstrumentation implements TypeInstrumentation {

  private static final String HTTP_REQUEST = "java.net.http.HttpRequest";

  @Override
  public int client() {
    return HfrBridge.JDK_HTTP_CLIENT;
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(
        new MethodAdvice(named("send").and(takesArguments(2)).and(takesArgument(0, named(HTTP_REQUEST))),
            ADVICE + "JdkSendAdvice"),
        new MethodAdvice(named("sendAsync").and(takesArgument(0, named(HTTP_REQUEST))), ADVICE + "JdkSendAsyncAdvice"));
  }
}
