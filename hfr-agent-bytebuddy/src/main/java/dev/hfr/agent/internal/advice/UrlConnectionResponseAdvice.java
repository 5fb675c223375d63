package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;

/**
 * Around {@code java.net.HttpURLConnection.getResponseCode()} and the JDK implementation's {@code getInputStream()},
 * which call each other: the bridge's depth guard records only the outermost, and each connection once.
 */
public final class UrlConnectionResponseAdvice {

  private UrlConnectionResponseAdvice() {}

  /** Starts the call (the first time for this connection). */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.This Object connection) {
    return HfrBridge.urlConnectionEnter(connection);
  }

  /** Records the response or the exception. */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(@Advice.Enter Object call, @Advice.This Object connection, @Advice.Thrown Throwable thrown) {
    HfrBridge.urlConnectionExit(call, connection, thrown);
  }
}
