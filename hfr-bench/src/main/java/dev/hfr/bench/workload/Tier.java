package dev.hfr.bench.workload;

/**
 * One model or tool tier of the simulated workload (Table B1): its base success rate (the chance that an
 * attempt without an injected fault returns a correct result), relative cost and latency per attempt.
 */
public record Tier(String name, double success, double cost, double latencySeconds) {

  public Tier {
    if (!(success >= 0 && success <= 1)) {
      throw new IllegalArgumentException("tier " + name + ": success must be within [0, 1], was " + success);
    }
    if (cost < 0 || latencySeconds < 0) {
      throw new IllegalArgumentException("tier " + name + ": cost and latency must not be negative");
    }
  }

  /** The latency in nanoseconds of virtual time. */
  public long latencyNanos() {
    return Math.round(latencySeconds * 1e9);
  }
}
