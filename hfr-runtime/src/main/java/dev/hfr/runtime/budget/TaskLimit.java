package dev.hfr.runtime.budget;

import java.util.Locale;

/**
 * One of the article's task limits (§4 "Budget 是防失控边界"); names the limit a task ran into. The
 * article's {@code max_retry} is the task's {@link RetryBudget}, enforced per retry by the retry gate.
 */
public enum TaskLimit {
  /** {@code max_turns}: agent loop iterations. */
  TURNS,
  /** {@code max_tool_calls}: logical tool calls. */
  TOOL_CALLS,
  /** {@code max_same_tool_calls}: the same tool called this many times in a row is a repeated action — stop or replan. */
  SAME_TOOL_CALLS,
  /** {@code max_wall_time}: time since the task started. */
  WALL_TIME,
  /** {@code max_cost}: money (or tokens) spent. */
  COST,
  /** {@code max_write_actions}: calls of tools with side effects (R1 and above). */
  WRITE_ACTIONS;

  /** The lower-case name, e.g. {@code same_tool_calls}: for events and reports. */
  public String code() {
    return name().toLowerCase(Locale.ROOT);
  }
}
