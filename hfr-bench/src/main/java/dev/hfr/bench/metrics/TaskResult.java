package dev.hfr.bench.metrics;

/**
 * What happened to one task, in ground truth (not as the harness believed it).
 *
 * @param success every step produced a correct accepted result and the task was not escalated
 * @param escalated the task was handed to a human
 * @param harnessAccepted the harness accepted every step (whether or not the results were correct)
 * @param duplicates side effects committed more than once, counted by the tools themselves
 * @param cost the task's cost, escalation included
 * @param latencyNanos end-to-end latency, escalation included
 * @param attempts physical attempts (all tiers, all steps)
 * @param stepsRun logical steps started
 * @param degraded at least one step's result came from a degradation rung
 * @param recoveryNanos time from the task's first failure to the end of the step that recovered from
 *     it, or to the escalation; -1 when the task met no failure or did not recover
 * @param attemptNanos time spent inside attempts (answered or failed), -1 when not measured; the rest of
 *     the latency outside escalation is waiting (backoff, Retry-After)
 * @param escalationNanos time the human escalation added, 0 when there was none
 */
public record TaskResult(
    boolean success,
    boolean escalated,
    boolean harnessAccepted,
    int duplicates,
    double cost,
    long latencyNanos,
    int attempts,
    int stepsRun,
    boolean degraded,
    long recoveryNanos,
    long attemptNanos,
    long escalationNanos) {

  /** A result whose time inside attempts was not measured (the live part measures it on the wire, not here). */
  public TaskResult(boolean success, boolean escalated, boolean harnessAccepted, int duplicates, double cost, long latencyNanos,
      int attempts, int stepsRun, boolean degraded, long recoveryNanos) {
    this(success, escalated, harnessAccepted, duplicates, cost, latencyNanos, attempts, stepsRun, degraded, recoveryNanos, -1, 0);
  }

  /** Success without any duplicate side effect. */
  public boolean cleanSuccess() {
    return success && duplicates == 0;
  }

  /** Success or escalation, without any duplicate side effect. */
  public boolean safeCompletion() {
    return (success || escalated) && duplicates == 0;
  }

  /** The harness accepted the task as done but it is not (a silent failure). */
  public boolean falseAccept() {
    return harnessAccepted && !success && !escalated;
  }
}
