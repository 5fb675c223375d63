package dev.hfr.runtime.budget;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A snapshot of what a task used against its limits: the {@code budget_usage} process metric of the
 * article's task report. Unlimited int limits are {@link TaskLimits#UNLIMITED}, an unlimited cost is
 * infinite and an unlimited wall time is {@link Long#MAX_VALUE}.
 */
public record BudgetUsage(
    int turns, int maxTurns,
    int toolCalls, int maxToolCalls,
    int retries, int maxRetries,
    int writeActions, int maxWriteActions,
    double cost, double maxCost,
    long wallTimeNanos, long maxWallTimeNanos,
    int repeatedActions) {

  /**
   * The usage as {@code name -> used} and {@code name_limit -> limit} entries, limits omitted when
   * unlimited; wall time in milliseconds. Ready for a JSON task report.
   */
  public Map<String, Number> toMap() {
    Map<String, Number> map = new LinkedHashMap<>();
    put(map, "turns", turns, maxTurns);
    put(map, "tool_calls", toolCalls, maxToolCalls);
    put(map, "retries", retries, maxRetries);
    put(map, "write_actions", writeActions, maxWriteActions);
    map.put("cost", cost);
    if (!Double.isInfinite(maxCost)) {
      map.put("cost_limit", maxCost);
    }
    map.put("wall_time_ms", wallTimeNanos / 1_000_000L);
    if (maxWallTimeNanos != Long.MAX_VALUE) {
      map.put("wall_time_ms_limit", maxWallTimeNanos / 1_000_000L);
    }
    map.put("repeated_actions", repeatedActions);
    return map;
  }

  private static void put(Map<String, Number> map, String name, int used, int limit) {
    map.put(name, used);
    if (limit != TaskLimits.UNLIMITED) {
      map.put(name + "_limit", limit);
    }
  }
}
