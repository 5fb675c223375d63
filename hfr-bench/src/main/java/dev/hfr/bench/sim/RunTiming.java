package dev.hfr.bench.sim;

/**
 * How long a synthetic run took on this machine (kept apart from the results, which must not depend on
 * the machine), and how busy the machine was meanwhile: on a shared machine the wall time says as much
 * about the neighbours as about the engine, so the process's CPU time and the load average are kept too.
 *
 * @param threads worker threads
 * @param mainTasks tasks of the main comparison (all strategies and seeds)
 * @param mainSeconds wall time of the main comparison
 * @param mainCpuSeconds CPU time this process used during the main comparison (all threads), or a
 *     negative number when the platform does not tell
 * @param loadBefore the one-minute load average when the main comparison began, or negative when unknown
 * @param loadAfter the one-minute load average when it ended, or negative when unknown
 * @param totalTasks tasks of the whole run
 * @param totalSeconds wall time of the whole run, statistics included
 * @param totalCpuSeconds CPU time this process used during the whole run, or negative when unknown
 * @param totalLoadAfter the one-minute load average when the whole run ended, or negative when unknown
 */
public record RunTiming(int threads, long mainTasks, double mainSeconds, double mainCpuSeconds, double loadBefore,
    double loadAfter, long totalTasks, double totalSeconds, double totalCpuSeconds, double totalLoadAfter) {

  /** The synthetic part's time budget (issue 20): two minutes. */
  public static final double BUDGET_SECONDS = 120;

  /**
   * The whole run's wall time on {@code threads} otherwise idle cores, estimated from its CPU time (the
   * run is CPU-bound and its units are independent), or negative when the CPU time is unknown.
   */
  public double idleWallSecondsEstimate() {
    return totalCpuSeconds > 0 ? totalCpuSeconds / threads : -1;
  }

  /** Tasks per second of the main comparison. */
  public double mainTasksPerSecond() {
    return mainSeconds > 0 ? mainTasks / mainSeconds : 0;
  }

  /** Tasks per CPU second of the main comparison, or 0 when the CPU time is unknown. */
  public double mainTasksPerCpuSecond() {
    return mainCpuSeconds > 0 ? mainTasks / mainCpuSeconds : 0;
  }
}
