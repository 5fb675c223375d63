package dev.hfr.agent.telemetry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * For a JVM with no metrics registry of its own: every interval, one line on stderr with the attempts
 * seen since the start, per client and per class and action, for example
 * {@code [hfr-agent] summary: jdk-httpclient 120 ok, T2->retry 3, T1->retry 2; okhttp 40 ok}. Nothing
 * is printed while nothing new happened.
 */
public final class SummaryReporter implements AutoCloseable {

  private final MeterRegistry registry;
  private final PrintStream out;
  private final ScheduledExecutorService timer;
  private double lastTotal;

  private SummaryReporter(MeterRegistry registry, PrintStream out, ScheduledExecutorService timer) {
    this.registry = registry;
    this.out = out;
    this.timer = timer;
  }

  /** Prints a summary to {@code out} every {@code intervalMillis}. */
  public static SummaryReporter start(MeterRegistry registry, PrintStream out, long intervalMillis) {
    ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "hfr-agent-summary");
      t.setDaemon(true);
      return t;
    });
    SummaryReporter reporter = new SummaryReporter(registry, out, timer);
    timer.scheduleAtFixedRate(reporter::printIfChanged, intervalMillis, intervalMillis, TimeUnit.MILLISECONDS);
    return reporter;
  }

  private void printIfChanged() {
    try {
      double total = registry.find(AgentMeters.ATTEMPTS).counters().stream().mapToDouble(Counter::count).sum();
      if (total != lastTotal) {
        lastTotal = total;
        out.println(summary(registry));
      }
    } catch (RuntimeException e) {
      out.println("[hfr-agent] summary failed: " + e);
    }
  }

  /** The summary line of what {@code registry} holds now. */
  public static String summary(MeterRegistry registry) {
    Map<String, Map<String, Double>> byClient = new TreeMap<>();
    for (Counter c : registry.find(AgentMeters.ATTEMPTS).counters()) {
      String client = c.getId().getTag("client");
      String fault = c.getId().getTag("class");
      String key = "none".equals(fault) ? "ok" : fault + "->" + c.getId().getTag("action");
      byClient.computeIfAbsent(client, k -> new TreeMap<>()).merge(key, c.count(), Double::sum);
    }
    StringBuilder line = new StringBuilder("[hfr-agent] summary:");
    String sep = " ";
    for (Map.Entry<String, Map<String, Double>> client : byClient.entrySet()) {
      line.append(sep).append(client.getKey());
      String inner = " ";
      for (Map.Entry<String, Double> e : client.getValue().entrySet()) {
        line.append(inner).append(e.getKey()).append(' ').append((long) (double) e.getValue());
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
    timer.shutdownNow();
  }
}
