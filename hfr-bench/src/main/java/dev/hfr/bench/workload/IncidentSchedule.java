package dev.hfr.bench.workload;

/**
 * Correlated incidents (Appendix C): the run's tasks are cut into windows of consecutive tasks; in a
 * window struck by a provider incident the primary model fails most attempts, in one struck by a tool
 * incident the primary tools do. Tasks run in order on one virtual clock, so an incident is a burst that
 * many consecutive tasks meet — what circuit breakers and tenant budgets are for.
 */
public final class IncidentSchedule {

  /** No incidents: faults are independent. */
  public static final IncidentSchedule NONE = new IncidentSchedule(0, 0, 0, 1, 0);

  private static final long PURPOSE_PROVIDER = 11;
  private static final long PURPOSE_TOOL = 12;

  private final long seed;
  private final double providerRate;
  private final double toolRate;
  private final int windowTasks;
  private final double failureProbability;

  public IncidentSchedule(long seed, double providerRate, double toolRate, int windowTasks, double failureProbability) {
    if (windowTasks < 1) {
      throw new IllegalArgumentException("windowTasks must be at least 1, was " + windowTasks);
    }
    this.seed = seed;
    this.providerRate = providerRate;
    this.toolRate = toolRate;
    this.windowTasks = windowTasks;
    this.failureProbability = failureProbability;
  }

  /** Whether the primary model provider is in an incident while task {@code taskIndex} runs. */
  public boolean providerIncident(int taskIndex) {
    return providerRate > 0 && Draws.uniform(seed, taskIndex / windowTasks, 0, 0, 0, PURPOSE_PROVIDER) < providerRate;
  }

  /** Whether the primary tools are in an incident while task {@code taskIndex} runs. */
  public boolean toolIncident(int taskIndex) {
    return toolRate > 0 && Draws.uniform(seed, taskIndex / windowTasks, 0, 0, 0, PURPOSE_TOOL) < toolRate;
  }

  /** The chance that an attempt on a tier in an incident fails. */
  public double failureProbability() {
    return failureProbability;
  }

  public boolean active() {
    return providerRate > 0 || toolRate > 0;
  }
}
