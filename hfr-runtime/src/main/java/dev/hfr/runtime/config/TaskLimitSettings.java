package dev.hfr.runtime.config;

/**
 * The {@code hfr.limits} section: the task limits of the tool-failures article (§4), also per tenant. The
 * paper gives no numbers; ours are generous defaults except {@code max_same_tool_calls: 5}, the article's
 * example of a repeated action.
 *
 * @param maxTurns model turns per task
 * @param maxToolCalls tool calls per task
 * @param maxSameToolCalls calls of one tool in a row before it counts as a repeated action (stop or replan)
 * @param maxWallTimeMs wall time per task
 * @param maxCost cost units per task; {@link Double#POSITIVE_INFINITY} when unlimited
 * @param maxWriteActions side-effecting calls (R1-R3) per task
 */
public record TaskLimitSettings(int maxTurns, int maxToolCalls, int maxSameToolCalls, long maxWallTimeMs, double maxCost,
    int maxWriteActions) {

  /** Our defaults. */
  public static final TaskLimitSettings DEFAULTS = new TaskLimitSettings(50, 200, 5, 600_000, Double.POSITIVE_INFINITY, 50);

  public TaskLimitSettings {
    if (maxTurns < 1 || maxToolCalls < 1 || maxSameToolCalls < 1 || maxWallTimeMs < 1 || maxWriteActions < 0
        || !(maxCost >= 0)) {
      throw new IllegalArgumentException("task limits must be positive (max_write_actions and max_cost may be 0)");
    }
  }
}
