package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;

/**
 * Each event as one INFO message of the JDK's {@code System.Logger} {@value DecisionLog#LOGGER_NAME}:
 * java.util.logging by default, or SLF4J/Logback/Log4j when their bridge is on the class path, so users
 * route and rotate decision events with the logging configuration they already have.
 */
final class SystemLoggerDestination implements DecisionDestination {

  private final Logger logger;

  SystemLoggerDestination(Logger logger) {
    this.logger = logger;
  }

  @Override
  public boolean enabled() {
    return logger.isLoggable(Level.INFO);
  }

  @Override
  public void write(DecisionEventJson json) {
    logger.log(Level.INFO, json.toString());
  }

  @Override
  public void flush(boolean behind) {
    // The logging framework's handlers decide when their output is flushed.
  }

  @Override
  public void close() {
    // The logger belongs to the application's logging framework.
  }

  @Override
  public String toString() {
    return "System.Logger " + logger.getName();
  }
}
