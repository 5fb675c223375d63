package dev.hfr.runtime.telemetry;

import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.internal.telemetry.DecisionEventJson;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Each event as one message of the JDK's {@code System.Logger} {@value DecisionLog#LOGGER_NAME}:
 * java.util.logging by default, or SLF4J/Logback/Log4j when their bridge is on the class path, so users
 * route and rotate decision events with the logging configuration they already have.
 *
 * <p>Levels are sized for production: what an operator acts on is INFO; routine per-call events ({@link
 * #ROUTINE}: during an outage, one per call) are DEBUG, and while the logger is above DEBUG they are counted
 * and logged as one INFO summary per {@link #SUMMARY_INTERVAL_NANOS} (and at close).
 */
final class SystemLoggerDestination implements DecisionDestination {

  /** Reasons of per-call events that say nothing new while an outage lasts: the meters count them too. */
  static final Set<Reason> ROUTINE = EnumSet.of(Reason.OK, Reason.CIRCUIT_OPEN, Reason.BULKHEAD_FULL,
      Reason.TENANT_BUDGET_EXHAUSTED, Reason.LEDGER_UNAVAILABLE);
  /** How often at most the summary of routine events is logged. */
  static final long SUMMARY_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(30);

  private final Logger logger;
  /** Routine events not logged one by one since the last summary, by reason; the writer thread's only. */
  private final Map<Reason, Long> unlogged = new EnumMap<>(Reason.class);
  private long summaryStartNanos = System.nanoTime();

  SystemLoggerDestination(Logger logger) {
    this.logger = logger;
  }

  @Override
  public boolean enabled() {
    return logger.isLoggable(Level.INFO);
  }

  @Override
  public boolean keeps(DecisionEvent event) {
    if (event.reason() == null || !ROUTINE.contains(event.reason()) || logger.isLoggable(Level.DEBUG)) {
      return true;
    }
    if (unlogged.isEmpty()) {
      summaryStartNanos = System.nanoTime();
    }
    unlogged.merge(event.reason(), 1L, Long::sum);
    return false;
  }

  @Override
  public void write(DecisionEventJson json) {
    logger.log(Level.INFO, json.toString());
  }

  @Override
  public void write(DecisionEvent event, DecisionEventJson json) {
    boolean routine = event.reason() != null && ROUTINE.contains(event.reason());
    logger.log(routine ? Level.DEBUG : Level.INFO, json.toString());
  }

  @Override
  public void flush(boolean behind) {
    // The logging framework's handlers decide when their output is flushed; the summary is due by time.
    if (!unlogged.isEmpty() && System.nanoTime() - summaryStartNanos >= SUMMARY_INTERVAL_NANOS) {
      summarise();
    }
  }

  /** Logs the counts of routine events not logged one by one, and starts counting again. */
  private void summarise() {
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - summaryStartNanos);
    StringBuilder counts = new StringBuilder();
    unlogged.forEach((reason, n) -> counts.append(counts.length() == 0 ? "" : ", ").append(n).append(' ').append(reason.code()));
    logger.log(Level.INFO, "HFR decisions in the last " + seconds + " s not logged one by one: " + counts
        + " (raise " + DecisionLog.LOGGER_NAME + " to DEBUG to see each)");
    unlogged.clear();
  }

  @Override
  public void close() {
    // The logger belongs to the application's logging framework; what is counted is told before it goes.
    if (!unlogged.isEmpty()) {
      summarise();
    }
  }

  @Override
  public String toString() {
    return "System.Logger " + logger.getName();
  }
}
