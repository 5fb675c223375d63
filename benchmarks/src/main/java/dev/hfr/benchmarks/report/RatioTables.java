package dev.hfr.benchmarks.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Turns JMH JSON results ({@code -rf json}) into the Markdown tables of {@code docs/BENCHMARKS.md}: time
 * and allocation per operation with JMH's error bars, and HFR's ratios to Resilience4j and Failsafe,
 * so the document's figures come from the run and not from hand copying.
 *
 * <pre>java -cp benchmarks/target/benchmarks.jar dev.hfr.benchmarks.report.RatioTables results.json...</pre>
 *
 * <p>For {@code CallPathBenchmark} the tables are the three paths of a call, each with HFR's ratios.
 */
public final class RatioTables {

  private static final String PROTECTED = "dev.hfr.benchmarks.ProtectedCallBenchmark.";
  private static final String CLASSIFIER = "dev.hfr.benchmarks.ClassifierBenchmark.";
  private static final String BREAKDOWN = "dev.hfr.benchmarks.CostBreakdownBenchmark.";
  private static final String CALL_PATHS = "dev.hfr.benchmarks.CallPathBenchmark.";

  /**
   * One benchmark's primary score and, if it was run with {@code -prof gc}, its bytes per operation; for the
   * file-log benchmark also the decision events handed to the log, the dropped ones and the CPU time of the
   * log's threads and of its writer thread alone (its {@code @AuxCounters}, summed over the measured
   * iterations; {@code NaN} elsewhere).
   */
  record Score(double value, double error, String unit, double bytesPerOp, int threads, double events, double dropped,
      double writerCpuNanos, double serialiserCpuNanos) {}

  private RatioTables() {}

  public static void main(String[] args) throws IOException {
    if (args.length == 0) {
      System.err.println("usage: RatioTables results.json...");
      System.exit(2);
    }
    ObjectMapper json = new ObjectMapper();
    for (String file : args) {
      Map<String, Score> scores = read(json.readTree(Path.of(file).toFile()));
      int threads = scores.values().iterator().next().threads();
      System.out.printf("<!-- %s -->%n%n", Path.of(file).getFileName());
      for (String[] path : CALL_PATH_TITLES) {
        if (scores.containsKey(CALL_PATHS + path[0] + "Hfr")) {
          System.out.println(callPathTable(scores, path[0], path[1], threads));
        }
      }
      for (String scenario : new String[] {"happy", "transient"}) {
        if (scores.containsKey(PROTECTED + scenario + "Hfr")) {
          System.out.println(protectedTable(scores, scenario, threads));
          Score fileLog = scores.get(PROTECTED + scenario + "HfrFileLog");
          if (fileLog != null) {
            System.out.print(fileLogDrops(fileLog, threads));
          }
        }
      }
      System.out.print(taskTable(scores, threads));
      if (scores.keySet().stream().anyMatch(k -> k.startsWith(CLASSIFIER))) {
        System.out.println(simpleTable(scores, CLASSIFIER, "classifier, " + threads + " thread(s)"));
      }
      if (scores.keySet().stream().anyMatch(k -> k.startsWith(BREAKDOWN))) {
        System.out.println(simpleTable(scores, BREAKDOWN, "parts of a call, happy path and failure, " + threads + " thread(s)"));
      }
    }
  }

  /** {@code CallPathBenchmark}'s paths: the benchmarks' prefix and the table's title. */
  private static final String[][] CALL_PATH_TITLES = {
      {"syncClean", "Blocking read, answered at once"},
      {"asyncClean", "Asynchronous read, its future already answered"},
      {"failureThenSuccess", "Blocking read, one T1 failure then success (no backoff)"}};

  /** One path of {@code CallPathBenchmark}: the three libraries, then HFR's ratios to the other two. */
  static String callPathTable(Map<String, Score> scores, String path, String title, int threads) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "#### %s, %d thread(s)%n%n", title, threads));
    out.append("| | time/op | B/op |\n|---|---:|---:|\n");
    String[][] rows = {{"Resilience4j", "Resilience4j Retry + CircuitBreaker"}, {"Failsafe", "Failsafe RetryPolicy + CircuitBreaker"},
        {"Hfr", "**HFR generated proxy, builder defaults**"}};
    for (String[] row : rows) {
      Score s = scores.get(CALL_PATHS + path + row[0]);
      if (s != null) {
        out.append(String.format(Locale.ROOT, "| %s | %s ± %s %s | %s |%n", row[1], number(s.value()), number(s.error()),
            s.unit().replace("/op", ""), number(s.bytesPerOp())));
      }
    }
    Score hfr = scores.get(CALL_PATHS + path + "Hfr");
    for (String other : new String[] {"Resilience4j", "Failsafe"}) {
      Score o = scores.get(CALL_PATHS + path + other);
      if (o != null) {
        out.append(String.format(Locale.ROOT, "| **HFR / %s** | **%.2f** | **%.2f** |%n", other, hfr.value() / o.value(),
            hfr.bytesPerOp() / o.bytesPerOp()));
      }
    }
    return out.toString();
  }

  /** The task rows: the default builder's, and the same on a clock read from memory if it ran (labelled). */
  static String taskTable(Map<String, Score> scores, int threads) {
    String[][] rows = {
        {"taskWithOneCallHfr", "open a task, one clean read, close (default builder)"},
        {"taskWithOneCallHfrTickerClock", "the same on a clock read from memory (`TickerClock`: no clock reading; shows what the host's clock costs the row, not a configuration)"}};
    StringBuilder out = new StringBuilder();
    for (String[] row : rows) {
      Score s = scores.get(PROTECTED + row[0]);
      if (s != null) {
        if (out.length() == 0) {
          out.append("| task | time/op | B/op |\n|---|---:|---:|\n");
        }
        out.append(String.format(Locale.ROOT, "| %s, %d thread(s) | %s ± %s %s | %s |%n", row[1], threads, number(s.value()),
            number(s.error()), s.unit().replace("/op", ""), number(s.bytesPerOp())));
      }
    }
    return out.length() == 0 ? "" : out.append(System.lineSeparator()).toString();
  }

  static Map<String, Score> read(JsonNode results) {
    Map<String, Score> scores = new LinkedHashMap<>();
    for (JsonNode r : results) {
      JsonNode primary = r.get("primaryMetric");
      JsonNode alloc = r.path("secondaryMetrics").path("gc.alloc.rate.norm");
      scores.put(r.get("benchmark").asText(), new Score(primary.get("score").asDouble(),
          primary.get("scoreError").asDouble(), primary.get("scoreUnit").asText(),
          alloc.isMissingNode() ? Double.NaN : alloc.get("score").asDouble(), r.get("threads").asInt(),
          secondary(r, "fileLogEvents"), secondary(r, "fileLogDropped"), secondary(r, "fileLogWriterCpuNanos"),
          secondary(r, "fileLogSerialiserCpuNanos")));
    }
    return scores;
  }

  private static double secondary(JsonNode result, String name) {
    JsonNode metric = result.path("secondaryMetrics").path(name);
    return metric.isMissingNode() ? Double.NaN : metric.get("score").asDouble();
  }

  /** Whether the file log's writer wrote every event the calls handed it, from the benchmark's counters. */
  static String fileLogDrops(Score s, int threads) {
    if (Double.isNaN(s.events())) {
      return "";
    }
    double share = s.events() == 0 ? 0 : 100.0 * s.dropped() / s.events();
    double written = s.events() - s.dropped();
    String writer = Double.isNaN(s.writerCpuNanos()) || written <= 0 ? ""
        : String.format(Locale.ROOT, "; the log's threads' CPU time: %,.0f ns per event written", s.writerCpuNanos() / written);
    if (!writer.isEmpty() && !Double.isNaN(s.serialiserCpuNanos())) {
      writer += String.format(Locale.ROOT, ", of which the serialising writer thread %,.0f ns", s.serialiserCpuNanos() / written);
    }
    return String.format(Locale.ROOT, "Decision events in the file-log row, %d thread(s), measured iterations: **%,.0f handed to "
        + "the log, %,.0f dropped (%.1f %%)**%s.%n%n", threads, s.events(), s.dropped(), share, writer);
  }

  static String protectedTable(Map<String, Score> scores, String scenario, int threads) {
    StringBuilder out = new StringBuilder();
    out.append(String.format(Locale.ROOT, "#### %s, %d thread(s)%n%n", scenario.equals("happy")
        ? "Happy path (R0 read answers at once)" : "One T1 failure, then success (backoff 0)", threads));
    out.append("| | time/op | B/op |\n|---|---:|---:|\n");
    String[][] rows = {
        {"Direct", "direct call"},
        {"Resilience4j", "Resilience4j Retry+CircuitBreaker+Bulkhead"},
        {"Failsafe", "Failsafe RetryPolicy+CircuitBreaker+Bulkhead"},
        {"Hfr", "**HFR, default builder** (decisions to `System.Logger`, logger at WARNING)"},
        {"HfrFileLog", "HFR, default builder, every decision written to a file (`DecisionLog.toFile`)"},
        {"HfrDiscarding", "HFR, discarding sink (`DecisionSink.discarding()`, earlier rounds' engine)"},
        {"HfrEveryCallTimed", "HFR, discarding sink, `CallTiming.EVERY_CALL`"},
        {"HfrInTask", "HFR, default builder, call inside an open task"}};
    for (String[] row : rows) {
      Score s = scores.get(PROTECTED + scenario + row[0]);
      if (s != null) {
        out.append(String.format(Locale.ROOT, "| %s | %s ± %s %s | %s |%n", row[1], number(s.value()), number(s.error()),
            s.unit().replace("/op", ""), number(s.bytesPerOp())));
      }
    }
    String[][] ratios = {{"Hfr", "HFR default"}, {"HfrFileLog", "HFR file log"}, {"HfrDiscarding", "HFR discarding sink"},
        {"HfrEveryCallTimed", "HFR `EVERY_CALL`"}};
    for (String[] hfrRow : ratios) {
      Score hfr = scores.get(PROTECTED + scenario + hfrRow[0]);
      if (hfr == null) {
        continue;
      }
      for (String other : new String[] {"Resilience4j", "Failsafe"}) {
        Score o = scores.get(PROTECTED + scenario + other);
        if (o != null) {
          boolean main = hfrRow[0].equals("Hfr");
          out.append(String.format(Locale.ROOT, main ? "| **%s / %s** | **%.2f** | **%.2f** |%n" : "| %s / %s | %.2f | %.2f |%n",
              hfrRow[1], other, hfr.value() / o.value(), hfr.bytesPerOp() / o.bytesPerOp()));
        }
      }
    }
    return out.toString();
  }

  static String simpleTable(Map<String, Score> scores, String prefix, String title) {
    StringBuilder out = new StringBuilder(String.format(Locale.ROOT, "#### %s%n%n| benchmark | score | B/op |%n|---|---:|---:|%n", title));
    scores.forEach((name, s) -> {
      if (name.startsWith(prefix)) {
        out.append(String.format(Locale.ROOT, "| %s | %s ± %s %s | %s |%n", name.substring(prefix.length()),
            number(s.value()), number(s.error()), s.unit(), number(s.bytesPerOp())));
      }
    });
    return out.toString();
  }

  private static String number(double v) {
    if (Double.isNaN(v)) {
      return "—";
    }
    if (Math.abs(v) >= 1000) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, Math.abs(v) >= 10 ? "%.1f" : "%.2f", v);
  }
}
