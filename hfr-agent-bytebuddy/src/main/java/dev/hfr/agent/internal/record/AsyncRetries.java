package dev.hfr.agent.internal.record;

import dev.hfr.agent.internal.bootstrap.CallDepth;
import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;

/**
 * Enforcement of a JDK {@code sendAsync}: the application gets a future of the agent's ({@code result}); each attempt's
 * future, when it completes, is classified, and either completes {@code result} with its response or exception, or, for
 * a request the agent may repeat, is sent again through the same client, request and body handler after the backoff,
 * on the JDK's delayed executor (no thread waits). Cancelling {@code result} stops the retries, and cancels the attempt
 * in flight.
 */
final class AsyncRetries implements BiConsumer<Object, Throwable> {

  private final HttpCallRecorder recorder;
  private final HttpCall call;
  private final HttpClient client;
  private final HttpRequest request;
  private final HttpResponse.BodyHandler<?> handler;
  private final CompletableFuture<Object> result;
  private volatile CompletableFuture<?> inFlight;

  AsyncRetries(HttpCallRecorder recorder, HttpCall call, Object client, Object request, Object handler,
      CompletableFuture<Object> result) {
    this.recorder = recorder;
    this.call = call;
    this.client = (HttpClient) client;
    this.request = (HttpRequest) request;
    this.handler = (HttpResponse.BodyHandler<?>) handler;
    this.result = result;
    result.whenComplete(new CancelInFlight(this));
  }

  /** Watches one attempt's future. */
  void watch(CompletableFuture<?> attempt) {
    inFlight = attempt;
    attempt.whenComplete(this);
  }

  @Override
  public void accept(Object response, Throwable failure) {
    boolean again;
    try {
      again = !result.isDone() && recorder.asyncAttemptEnded(call, response, failure, true);
    } catch (Throwable t) {
      HfrBridge.fail(HfrBridge.JDK_HTTP_CLIENT, t);
      again = false;
    }
    if (!again) {
      if (failure != null) {
        result.completeExceptionally(failure);
      } else {
        result.complete(response);
      }
      return;
    }
    CompletableFuture.delayedExecutor(call.pendingDelayNanos, TimeUnit.NANOSECONDS).execute(this::resend);
  }

  /** Sends the request again; the depth guard keeps the instrumented {@code sendAsync} from recording it a second time. */
  private void resend() {
    if (result.isDone()) {
      return;
    }
    HttpCallRecorder.nextAttempt(call);
    CompletableFuture<?> attempt;
    CallDepth.enter(HfrBridge.JDK_HTTP_CLIENT);
    try {
      attempt = client.sendAsync(request, handler);
    } catch (Throwable t) {
      recorder.recordFinal(call, 0, null, null, t);
      result.completeExceptionally(t);
      return;
    } finally {
      CallDepth.exit(HfrBridge.JDK_HTTP_CLIENT);
    }
    watch(attempt);
  }

  /** Cancels the attempt in flight when the application cancels its future. */
  private static final class CancelInFlight implements BiConsumer<Object, Throwable> {
    private final AsyncRetries retries;

    CancelInFlight(AsyncRetries retries) {
      this.retries = retries;
    }

    @Override
    public void accept(Object response, Throwable failure) {
      CompletableFuture<?> attempt = retries.inFlight;
      if (retries.result.isCancelled() && attempt != null) {
        attempt.cancel(true);
      }
    }
  }
}
