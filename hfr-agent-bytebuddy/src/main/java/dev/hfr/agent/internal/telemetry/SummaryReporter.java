package dev.hfr.agent.internal.telemetry;

import java.io.PrintStream;
import java.util.Map;

/**
 * For a JVM with no metrics registry of its own: every interval, one line on stderr with the attempts
 * seen since the start, per client and per class and action, for example
 * {@code [hfr-agent] summary: jdk-httpclient T1->retry 2, T2->retry 3, ok 120; okhttp ok 40}. Nothing
 * is printed while nothing new happened.
 *
 * <p>A daemon thread of its own that sleeps between lines: a {@code java.util.Timer} would load five more
 * JDK classes on the first request of every JVM the agent is in (docs/BENCHMARKS.md, "Java agent overhead").
 */
public final class SummaryReporter extends Thread implements AutoCloseable {

  private final AgentMeters meters;
  private final PrintStream out;
  private final long intervalMillis;
  private volatile boolean closed;
  private long lastTotal;

  private SummaryReporter(AgentMeters meters, PrintStream out, long intervalMillis) {
    super("hfr-agent-summary");
    setDaemon(true);
    this.meters = meters;
    this.out = out;
    this.intervalMillis = intervalMillis;
  }

  /** Prints a summary to {@code out} every {@code intervalMillis}, on a daemon thread. */
  public static SummaryReporter start(AgentMeters meters, PrintStream out, long intervalMillis) {
    SummaryReporter reporter = new SummaryReporter(meters, out, intervalMillis);
    reporter.start();
    return reporter;
  }

  @Override
  public void run() {
    while (!closed) {
      try {
        Thread.sleep(intervalMillis);
      } catch (InterruptedException closing) {
        return;
      }
      report();
    }
  }

  private void report() {
    try {
      long total = meters.attempts();
      if (total != lastTotal) {
        lastTotal = total;
        out.println(summary(meters));
      }
    } catch (RuntimeException e) {
      out.println("[hfr-agent] summary failed: " + e);
    }
  }

  /** The summary line of what {@code meters} counted so far. */
  public static String summary(AgentMeters meters) {
    StringBuilder line = new StringBuilder("[hfr-agent] summary:");
    String sep = " ";
    Map<String, Map<String, Long>> byClient = meters.attemptsByClient();
    for (Map.Entry<String, Map<String, Long>> client : byClient.entrySet()) {
      line.append(sep).append(client.getKey());
      String inner = " ";
      for (Map.Entry<String, Long> e : client.getValue().entrySet()) {
        line.append(inner).append(e.getKey()).append(' ').append(e.getValue());
        inner = ", ";
      }
      sep = "; ";
    }
    if (byClient.isEmpty()) {
      line.append(" no HTTP requests seen");
    }
    return line.toString();
  }

  @Override
  public void close() {
    closed = true;
    interrupt();
  }
}
