package dev.hfr.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.isDeclaredBy;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.bootstrap.HfrBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;

/**
 * {@code java.net.HttpURLConnection}: the response arrives in the first of {@code getResponseCode()}
 * (declared by {@code java.net.HttpURLConnection}) and {@code getInputStream()} (declared by the JDK's
 * {@code sun.net.www.protocol.http.HttpURLConnection}, which HTTPS connections delegate to). The two
 * call each other, so the depth guard records only the outermost, and the agent records each
 * connection once.
 */
public final class HttpUrlConnectionInstrumentation implements TypeInstrumentation {

  private static final String JDK_IMPLEMENTATION = "sun.net.www.protocol.http.HttpURLConnection";
  private static final String API = "java.net.HttpURLConnection";

  @Override
  public int client() {
    return HfrBridge.HTTP_URL_CONNECTION;
  }

  @Override
  public List<String> classNames() {
    return List.of(API, JDK_IMPLEMENTATION);
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(
        new MethodAdvice(named("getResponseCode").and(takesArguments(0)).and(isDeclaredBy(named(API))), ResponseAdvice.class.getName()),
        new MethodAdvice(named("getInputStream").and(takesArguments(0)).and(isDeclaredBy(named(JDK_IMPLEMENTATION))),
            ResponseAdvice.class.getName()));
  }

  /** Around the calls that wait for the response. */
  public static final class ResponseAdvice {
    private ResponseAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.This Object connection) {
      return HfrBridge.urlConnectionEnter(connection);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object call, @Advice.This Object connection, @Advice.Thrown Throwable thrown) {
      HfrBridge.urlConnectionExit(call, connection, thrown);
    }
  }
}
