package dev.hfr.runtime;

import dev.hfr.runtime.internal.engine.ExplicitSteps;

/**
 * A stretch of the agent's code, on one thread, whose writes are keyed by the step id the agent gave
 * ({@link TaskScope#step}) instead of their occurrence in the task. Close it when the step's calls are
 * done; closing restores the step that was current before.
 */
public final class StepScope implements AutoCloseable {

  private final String stepId;
  private final String previous;
  private boolean closed;

  StepScope(String stepId) {
    this.stepId = stepId;
    this.previous = ExplicitSteps.enter(stepId);
  }

  /**
   * Names the step of the writes made on this thread until the scope is closed, in whichever task they join — as
   * {@link TaskScope#step} does, for code that holds no {@code TaskScope} (a framework adapter binding the tool-call
   * id a conversation gives a call, so that a replay of that call finds its ledger record).
   *
   * @throws IllegalArgumentException if {@code stepId} is null or blank
   */
  public static StepScope open(String stepId) {
    if (stepId == null || stepId.isBlank()) {
      throw new IllegalArgumentException("stepId must not be blank");
    }
    return new StepScope(stepId);
  }

  /** The step id the writes in this scope are keyed by. */
  public String stepId() {
    return stepId;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      ExplicitSteps.restore(previous);
    }
  }
}
