package dev.hfr.runtime.telemetry;

/**
 * Which calls the engine times for {@value HfrMeters#CALL_DURATION}. Timing a call takes two clock
 * readings; on a virtualised host (kvm-clock) one reading costs about 30 ns, which is as much as all the
 * rest of a clean call's protection. For a call that crosses a network that is nothing; for an in-process
 * tool that answers in nanoseconds it doubles the cost of calling it.
 */
public enum CallTiming {

  /** Every call is timed. */
  EVERY_CALL,

  /**
   * The default. Every call is timed, except the clean calls (one attempt, accepted), in a task scope or
   * not, of a tool that, measured so far, answers in under 20 µs and is called more than ten thousand times
   * a second: of those, a random one in 16 is timed, so the timer shows their distribution and
   * {@value HfrMeters#CALLS} their number. Calls that fail, that are verified above V0, and calls to a
   * target whose breaker has a latency threshold are always timed. An untimed call in a task checks the
   * task's wall-time limit at its tool's latest reading, and the task reads the clock itself at least every
   * 16th such call ({@code TaskLimitTracker.beforeToolCallAtRecentReading}).
   */
  ADAPTIVE
}
