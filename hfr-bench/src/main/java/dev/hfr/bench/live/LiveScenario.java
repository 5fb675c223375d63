package dev.hfr.bench.live;

/**
 * One fault-injection setting of the live run: a rate of Table 16 faults on every request, optionally
 * with burst mode (a share of task windows in which the primary model fails every attempt).
 */
public record LiveScenario(String name, double faultRate, double burstShare) {

  public LiveScenario {
    if (!(faultRate >= 0 && faultRate <= 1) || !(burstShare >= 0 && burstShare <= 1)) {
      throw new IllegalArgumentException("rates must be within [0, 1]: " + faultRate + ", " + burstShare);
    }
  }
}
