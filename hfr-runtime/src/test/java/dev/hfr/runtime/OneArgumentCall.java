package dev.hfr.runtime;

import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.BooleanSupplier;

/** Calls of a one-argument tool for tests outside the engine's package, and a wait on a condition. */
public final class OneArgumentCall {

  private OneArgumentCall() {}

  /** A call of a tool with {@code argument} whose body is {@code body}; its reconcile finds nothing. */
  public static <R> ToolInvocation<R> of(Object argument, Callable<R> body) {
    return new ToolInvocation<>() {
      @Override
      public R proceed(String key) throws Exception {
        return body.call();
      }

      @Override
      public Optional<R> reconcile() {
        return Optional.empty();
      }

      @Override
      public int argumentCount() {
        return 1;
      }

      @Override
      public Object argument(int index) {
        return argument;
      }
    };
  }

  /** Waits for {@code condition} (looked at every 20 ms) up to {@code millis}; how long it took, or -1. */
  public static long awaitMillis(BooleanSupplier condition, long millis) throws InterruptedException {
    long start = System.nanoTime();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - start > millis * 1_000_000) {
        return -1;
      }
      Thread.sleep(20);
    }
    return (System.nanoTime() - start) / 1_000_000;
  }
}
