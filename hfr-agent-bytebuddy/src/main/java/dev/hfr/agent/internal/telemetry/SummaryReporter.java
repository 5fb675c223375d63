package dev.hfr.agent.internal.telemetry;

import java.io.PrintStream;
import java.util.Map;
import java.util.Timer;
import java.util.TimerTask;

/**
 * For a JVM with no metrics registry of its own: every interval, one line on stderr with the attempts
 * seen since the start, per client and per class and action, for example
 * {@code [hfr-agent] summary: jdk-httpclient T1->retry 2, T2->retry 3, ok 120; okhttp ok 40}. Nothing
 * is printed while nothing new happened.
 */
public final class SummaryReporter extends TimerTask implements AutoCloseable {

  private final AgentMeters meters;
  private final PrintStream out;
  private final Timer timer = new Timer("hfr-agent-summary", true);
  private long lastTotal;

  private SummaryReporter(AgentMeters meters, PrintStream out) {
    this.meters = meters;
    this.out = out;
  }

  /** Prints a summary to {@code out} every {@code intervalMillis}, on a daemon thread. */
  public static SummaryReporter start(AgentMeters meters, PrintStream out, long intervalMillis) {
    SummaryReporter reporter = new SummaryReporter(meters, out);
    reporter.timer.scheduleAtFixedRate(reporter, intervalMillis, intervalMillis);
    return reporter;
  }

  @Override
  public void run() {
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
    timer.cancel();
  }
}
