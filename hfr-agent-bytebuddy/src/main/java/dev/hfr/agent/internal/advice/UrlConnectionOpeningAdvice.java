package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;

/**
 * On entry to the JDK URL handlers' {@code openConnection(URL, Proxy)}: the first time, the agent weaves the
 * {@code HttpURLConnection} classes before the connection is created.
 */
public final class UrlConnectionOpeningAdvice {

  private UrlConnectionOpeningAdvice() {}

  /** Weaves the connection classes, once. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static void enter() {
    HfrBridge.urlConnectionOpening();
  }
}
