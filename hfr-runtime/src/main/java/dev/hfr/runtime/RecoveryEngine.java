package dev.hfr.runtime;

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
}
