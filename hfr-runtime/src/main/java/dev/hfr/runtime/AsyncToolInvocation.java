package dev.hfr.runtime;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;

/**
 * One call of an asynchronous tool method (one returning {@code CompletionStage<R>} or {@code
 * CompletableFuture<R>}): what the generated proxy hands to {@link RecoveryEngine#executeAsync}. An
 * attempt starts the method and completes later; the engine runs the same recovery as for a blocking
 * tool without holding a thread while it waits.
 *
 * <p>The reconcile and compensate methods stay blocking queries ({@link #reconcile()}, {@link
 * #compensate()}), run on the thread that completed the failed attempt.
 */
public abstract class AsyncToolInvocation<R> extends ToolInvocation<R> {

  /**
   * Starts one attempt of the tool method.
   *
   * @param idempotencyKey for an R1 method, the key to pass in its {@code @IdempotencyKey} parameter
   *     (the same on every attempt); {@code null} for other methods
   * @return the attempt's result; a method that throws instead fails the attempt the same way
   */
  public abstract CompletionStage<R> start(String idempotencyKey) throws Exception;

  /**
   * Starts rung {@code index} of the degradation ladder with this call's arguments.
   *
   * @throws IndexOutOfBoundsException if there is no such rung
   */
  public CompletionStage<R> startRung(int index) throws Exception {
    throw new IndexOutOfBoundsException("this tool method has no degradation rung " + index);
  }

  /** One attempt, waited for on the calling thread: for the paths that run a call blocking. */
  @Override
  public final R proceed(String idempotencyKey) throws Exception {
    return await(start(idempotencyKey));
  }

  /** One rung attempt, waited for on the calling thread. */
  @Override
  public final R degrade(int index) throws Exception {
    return await(startRung(index));
  }

  private static <R> R await(CompletionStage<R> stage) throws Exception {
    CompletableFuture<R> future = stage.toCompletableFuture();
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw unwrap(e.getCause());
    }
  }

  /** The failure an attempt's stage completed with, without the wrappers stages add. */
  static Exception unwrap(Throwable t) {
    Throwable cause = t;
    while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
      cause = cause.getCause();
    }
    if (cause instanceof Exception e) {
      return e;
    }
    if (cause instanceof Error error) {
      throw error;
    }
    return new IllegalStateException(cause);
  }
}
