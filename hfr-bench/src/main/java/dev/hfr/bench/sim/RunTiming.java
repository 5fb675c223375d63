package dev.hfr.bench.sim;

/**
 * How long a synthetic run took on this machine (kept apart from the results, which must not depend on
 * the machine).
 *
 * @param threads worker threads
 * @param mainTasks tasks of the main comparison (all strategies and seeds)
 * @param mainSeconds wall time of the main comparison
 * @param totalTasks tasks of the whole run
 * @param totalSeconds wall time of the whole run, statistics included
 */
public record RunTiming(int threads, long mainTasks, double mainSeconds, long totalTasks, double totalSeconds) {

  /** Tasks per second of the main comparison. */
  public double mainTasksPerSecond() {
    return mainSeconds > 0 ? mainTasks / mainSeconds : 0;
  }
}
