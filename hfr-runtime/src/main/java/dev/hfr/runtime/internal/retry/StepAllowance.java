package dev.hfr.runtime.internal.retry;

import dev.hfr.runtime.budget.RetryBudget;
import java.util.Objects;

/**
 * What {@link RetryGate} charges a retry to: one step's attempts and its task's retries (paper §4.3), as a
 * {@link RetryBudget.Step} counts them. The engine's calls are their own allowance, so that a call outside any task
 * counts its one step without a budget object.
 */
public interface StepAllowance {

  /** Attempts made or granted so far, the first included. */
  int stepAttempts();

  /** Charges one retry to the step and the task, or says which of the two is exhausted (nothing is charged then). */
  RetryBudget.Charge tryChargeRetry();

  /** Gives back a retry charged by {@link #tryChargeRetry()} that was then not made (a later check refused it). */
  void refundRetry();

  /** {@code step} as an allowance. */
  static StepAllowance of(RetryBudget.Step step) {
    Objects.requireNonNull(step, "step");
    return new StepAllowance() {
      @Override
      public int stepAttempts() {
        return step.attempts();
      }

      @Override
      public RetryBudget.Charge tryChargeRetry() {
        return step.tryChargeRetry();
      }

      @Override
      public void refundRetry() {
        step.refundRetry();
      }
    };
  }
}
