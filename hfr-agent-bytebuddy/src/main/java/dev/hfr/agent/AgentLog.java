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

  /** Prints one line about something that went wrong. */
  public static void warn(String message) {
    System.err.println("[hfr-agent] WARNING: " + message);
  }
}
