package dev.hfr.agent.instrumentation;

import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.hfr.agent.bootstrap.HfrBridge;
import java.util.List;
import net.bytebuddy.asm.Advice;

/**
 * {@code java.net.http.HttpClient}: the JDK's implementation {@code jdk.internal.net.http.HttpClientImpl}
 * (what {@code HttpClient.newHttpClient()} returns delegates to it). {@code send} is recorded when it
 * returns or throws, and may be repeated there under enforcement; every {@code sendAsync} overload is
 * recorded when its future completes. {@code send} calls {@code sendAsync} on the same thread: the depth
 * guard records only the outermost.
 */
public final class JdkHttpClientInstrumentation implements TypeInstrumentation {

  @Override
  public int client() {
    return HfrBridge.JDK_HTTP_CLIENT;
  }

  @Override
  public List<String> classNames() {
    return List.of("jdk.internal.net.http.HttpClientImpl");
  }

  @Override
  public List<MethodAdvice> advice() {
    return List.of(
        new MethodAdvice(named("send").and(takesArguments(2)).and(takesArgument(0, named("java.net.http.HttpRequest"))),
            SendAdvice.class.getName()),
        new MethodAdvice(named("sendAsync").and(takesArgument(0, named("java.net.http.HttpRequest"))),
            SendAsyncAdvice.class.getName()));
  }

  /** Around {@code send}; a true exit value runs the method again (an enforced retry). */
  public static final class SendAdvice {
    private SendAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(0) Object request) {
      return HfrBridge.jdkEnter(request);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class, repeatOn = Advice.OnNonDefaultValue.class)
    public static boolean exit(@Advice.Enter Object call, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
      return HfrBridge.jdkSendExit(call, response, thrown);
    }
  }

  /** Around {@code sendAsync}: observes the returned future, never replaces it. */
  public static final class SendAsyncAdvice {
    private SendAsyncAdvice() {}

    @Advice.OnMethodEnter(suppress = Throwable.class)
    public static Object enter(@Advice.Argument(0) Object request) {
      return HfrBridge.jdkEnter(request);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@Advice.Enter Object call, @Advice.Return Object future, @Advice.Thrown Throwable thrown) {
      HfrBridge.jdkAsyncExit(call, future, thrown);
    }
  }
}
