package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Around every {@code HttpClient.sendAsync(HttpRequest, BodyHandler, ...)} of the JDK's client facade. The bridge
 * observes the future through a dependent stage; under enforcement, for a request it may repeat, it returns a future of
 * its own that completes with the last attempt, and the application gets that one.
 */
public final class JdkSendAsyncAdvice {

  private JdkSendAsyncAdvice() {}

  /** Starts the call. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.Argument(0) Object request) {
    return HfrBridge.jdkEnter(request);
  }

  /** Records the call when its future completes; may hand the application another future (enforcement). */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(@Advice.Enter Object call, @Advice.This Object client, @Advice.Argument(0) Object request,
      @Advice.Argument(1) Object handler,
      @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object future, @Advice.Thrown Throwable thrown) {
    future = HfrBridge.jdkAsyncExit(call, client, request, handler, future, thrown);
  }
}
