package dev.hfr.agent;

/**
 * The agent's few messages, on stderr with a {@code [hfr-agent]} prefix. Not a logging framework on
 * purpose: initialising the application's logging (or java.util.logging) from an agent changes how
 * that application's logging is set up later.
 */
public final class AgentLog {

  private AgentLog() {}

  /** Prints one line. */
  public static void info(String message) {
    System.err.println("[hfr-agent] " + message);
  }

  /** Whether {@code -Dhfr.agent.debug=true}: then the agent also says what it instrumented and how long its steps took. */
  public static final boolean DEBUG = Boolean.getBoolean("hfr.agent.debug");

  /** Prints one line when {@link #DEBUG} is on. */
  public static void debug(String message) {
    if (DEBUG) {
      System.err.println("[hfr-agent] debug: " + message);
    }
  }

  /** Milliseconds since {@code startNanos}, with one decimal, for the debug lines. */
  public static String millisSince(long startNanos) {
    long tenths = (System.nanoTime() - startNanos) / 100_000;
    return tenths / 10 + "." + tenths % 10 + " ms";
  }

  /** Prints one line about something that went wrong. */
  public static void warn(String message) {
    System.err.println("[hfr-agent] WARNING: " + message);
  }
}
