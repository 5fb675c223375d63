package dev.hfr.runtime;

import java.util.concurrent.CompletableFuture;

/**
 * What a generated proxy calls: runs one tool call under HFR — classify failures, decide, retry,
 * reconcile, degrade, verify, record — and returns an accepted result or throws {@link ToolCallException}
 * carrying the structured outcome.
 */
public interface RecoveryEngine {

  /**
   * Runs {@code invocation} of {@code tool}, joining the current task scope if there is one.
   *
   * @return the accepted result (possibly from a degradation rung; see {@link ToolOutcome#degraded()})
   * @throws ToolCallException when no accepted result could be had safely
   */
  <R> R execute(ToolDescriptor tool, ToolInvocation<R> invocation);

  /**
   * Runs an asynchronous tool's {@code invocation} (its method returns {@code CompletionStage<R>} or
   * {@code CompletableFuture<R>}), joining the current task scope if there is one. {@link Hfr} runs the same
   * recovery as for {@link #execute} without holding a thread while it waits; this default, for engines
   * without an asynchronous driver, runs the call through {@link #execute} on the calling thread.
   *
   * @return the accepted result, or a future failed with {@link ToolCallException}
   */
  default <R> CompletableFuture<R> executeAsync(ToolDescriptor tool, AsyncToolInvocation<R> invocation) {
    try {
      return CompletableFuture.completedFuture(execute(tool, invocation));
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
