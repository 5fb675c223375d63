package dev.hfr.agent.internal.advice;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Around Apache HttpClient 5 async's {@code doExecute(HttpHost, AsyncRequestProducer, AsyncResponseConsumer,
 * HandlerFactory, HttpContext, FutureCallback)}, where every {@code CloseableHttpAsyncClient.execute} overload that takes
 * a request ends. The bridge may hand the method its own producer, consumer and callback, which see the request's head,
 * the response's head and the end of the exchange and pass everything on; under enforcement the application gets a
 * future of the agent's, which completes with the last attempt.
 */
public final class ApacheAsyncAdvice {

  private ApacheAsyncAdvice() {}

  /** Starts the call; may replace the producer, the consumer and the callback with the agent's. */
  @Advice.OnMethodEnter(suppress = Throwable.class)
  public static Object enter(@Advice.This Object client, @Advice.Argument(0) Object target,
      @Advice.Argument(value = 1, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object producer,
      @Advice.Argument(value = 2, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object consumer,
      @Advice.Argument(3) Object pushHandlerFactory, @Advice.Argument(4) Object context,
      @Advice.Argument(value = 5, readOnly = false, typing = Assigner.Typing.DYNAMIC) Object callback) {
    Object[] call = HfrBridge.apacheAsyncEnter(client, target, producer, consumer, pushHandlerFactory, context, callback,
        org.apache.hc.core5.http.nio.AsyncRequestProducer.class, org.apache.hc.core5.http.nio.AsyncResponseConsumer.class,
        org.apache.hc.core5.concurrent.FutureCallback.class);
    if (call == null) {
      return null;
    }
    if (call.length == 4) {
      producer = call[1];
      consumer = call[2];
      callback = call[3];
    }
    return call[0];
  }

  /** May hand the application the agent's future (enforcement). */
  @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
  public static void exit(@Advice.Enter Object call,
      @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object future, @Advice.Thrown Throwable thrown) {
    future = HfrBridge.apacheAsyncExit(call, future, thrown);
  }
}
