package dev.hfr.runtime.budget;

import java.util.Objects;

/**
 * Splits a task's retry budget B_t over its n steps (paper §4.8): {@code w_i = c_i·ρ_i} and
 * {@code B_i = floor(B'·w_i / Σw)}, where c_i is the step's criticality, ρ_i the recoverability of its
 * faults, and {@code B' = B_t − reserve}: the reserve is held back for the last step, so earlier steps
 * cannot spend everything and leave the final commit or verification without a retry.
 *
 * <p>The shares never add up to more than B_t. Stateless.
 */
public final class BudgetAllocator {

  private BudgetAllocator() {}

  /**
   * The retries of each step.
   *
   * @param taskBudget B_t, at least 0
   * @param criticality c_i per step, finite and not negative
   * @param recoverability ρ_i per step, within [0, 1]
   * @param reserveForLastStep retries held back for the last step, within [0, B_t]
   * @return B_i per step (a new array), the last one including the reserve
   */
  public static int[] allocate(int taskBudget, double[] criticality, double[] recoverability, int reserveForLastStep) {
    Objects.requireNonNull(criticality, "criticality");
    Objects.requireNonNull(recoverability, "recoverability");
    if (taskBudget < 0) {
      throw new IllegalArgumentException("taskBudget must not be negative, was " + taskBudget);
    }
    int n = criticality.length;
    if (n == 0) {
      throw new IllegalArgumentException("a task has at least one step; criticality is empty");
    }
    if (recoverability.length != n) {
      throw new IllegalArgumentException(
          "criticality and recoverability need one value per step: " + n + " vs " + recoverability.length);
    }
    if (reserveForLastStep < 0 || reserveForLastStep > taskBudget) {
      throw new IllegalArgumentException(
          "reserveForLastStep must be within [0, taskBudget] = [0, " + taskBudget + "], was " + reserveForLastStep);
    }
    double[] weights = new double[n];
    double total = 0.0;
    for (int i = 0; i < n; i++) {
      double c = criticality[i];
      double rho = recoverability[i];
      if (!(c >= 0.0) || Double.isInfinite(c)) {
        throw new IllegalArgumentException("criticality[" + i + "] must be finite and not negative, was " + c);
      }
      if (!(rho >= 0.0 && rho <= 1.0)) {
        throw new IllegalArgumentException("recoverability[" + i + "] must be within [0, 1], was " + rho);
      }
      weights[i] = c * rho;
      total += weights[i];
    }
    int distributable = taskBudget - reserveForLastStep;
    int[] shares = new int[n];
    if (total > 0.0) {
      long sum = 0;
      for (int i = 0; i < n; i++) {
        // floor, so the shares fall short of B' rather than exceed it
        shares[i] = (int) Math.floor(distributable * (weights[i] / total));
        sum += shares[i];
      }
      // Floating-point rounding could still push a share up by one; take it back from the largest.
      while (sum > distributable) {
        int largest = 0;
        for (int i = 1; i < n; i++) {
          largest = shares[i] > shares[largest] ? i : largest;
        }
        shares[largest]--;
        sum--;
      }
    }
    shares[n - 1] += reserveForLastStep;
    return shares;
  }
}
