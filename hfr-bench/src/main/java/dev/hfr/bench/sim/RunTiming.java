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
 */
public record RunTiming(int threads, long mainTasks, double mainSeconds, double mainCpuSeconds, double loadBefore,
    double loadAfter, long totalTasks, double totalSeconds) {

  /** Tasks per second of the main comparison. */
  public double mainTasksPerSecond() {
    return mainSeconds > 0 ? mainTasks / mainSeconds : 0;
  }

  /** Tasks per CPU second of the main comparison, or 0 when the CPU time is unknown. */
  public double mainTasksPerCpuSecond() {
    return mainCpuSeconds > 0 ? mainTasks / mainCpuSeconds : 0;
  }
}
