package dev.hfr.agent.internal.record;

import dev.hfr.agent.internal.bootstrap.HfrBridge;
import java.util.function.BiConsumer;

/**
 * Records a {@code sendAsync} call when its future completes, through a dependent stage: the application's future, its
 * value and its exception are untouched (shadow mode, or a request enforcement may not repeat).
 */
final class AsyncObserver implements BiConsumer<Object, Throwable> {

  private final HttpCallRecorder recorder;
  private final HttpCall call;

  AsyncObserver(HttpCallRecorder recorder, HttpCall call) {
    this.recorder = recorder;
    this.call = call;
  }

  @Override
  public void accept(Object response, Throwable failure) {
    try {
      recorder.asyncAttemptEnded(call, response, failure, false);
    } catch (Throwable t) {
      HfrBridge.fail(HfrBridge.JDK_HTTP_CLIENT, t);
    }
  }
}
