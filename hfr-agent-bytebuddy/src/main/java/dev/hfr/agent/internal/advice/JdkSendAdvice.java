package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;

/**
 * Around {@code HttpClient.send(HttpRequest, BodyHandler)} of the JDK's client facade; a true exit value runs the
 * method again (an enforced retry, after the backoff the bridge has waited out).
 */
public final class JdkSendAdvice {

  private JdkSendAdvice() {}

  /** Starts the call. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.Argument(0) Object request) {
    return HfrBridge.jdkEnter(request);
  }

  /** Records the attempt; true sends the request again. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class, repeatOn = Advice.OnNonDefaultValue.class)
  public static boolean exit(@Advice.Enter Object call, @Advice.Return Object response, @Advice.Thrown Throwable thrown) {
    return HfrBridge.jdkSendExit(call, response, thrown);
  }
}
