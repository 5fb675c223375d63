package dev.hfr.bench.live;

import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.strategy.Strategy;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/** Summarises the cells of one scenario and strategy across their fault-schedule seeds. */
final class LiveSummaries {

  /** Student's t at 97.5 % for 1..10 degrees of freedom: a 95 % interval from a handful of seeds. */
  private static final double[] T975 = {12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228};

  /** The metrics summarised, by the name the report shows. */
  static final Map<String, ToDoubleFunction<RunMetrics>> METRICS = metrics();

  private LiveSummaries() {}

  private static Map<String, ToDoubleFunction<RunMetrics>> metrics() {
    Map<String, ToDoubleFunction<RunMetrics>> m = new LinkedHashMap<>();
    m.put("SR %", r -> 100 * r.sr());
    m.put("CSR %", r -> 100 * r.csr());
    m.put("SCR %", r -> 100 * r.scr());
    m.put("DUP/1000", RunMetrics::dupPer1000);
    m.put("ESC %", r -> 100 * r.esc());
    m.put("DEG %", r -> 100 * r.deg());
    m.put("false-accept %", r -> 100 * r.falseAcceptRate());
    m.put("cost/task", RunMetrics::meanCost);
    m.put("p95 (s)", RunMetrics::p95);
    m.put("p95 non-esc (s)", RunMetrics::p95NonEscalated);
    return m;
  }

  static LiveResults.Summary of(String scenario, Strategy strategy, List<LiveResults.Cell> cells, RunMetrics pooled) {
    Map<String, LiveResults.Interval> across = new LinkedHashMap<>();
    for (Map.Entry<String, ToDoubleFunction<RunMetrics>> e : METRICS.entrySet()) {
      double[] v = new double[cells.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = e.getValue().applyAsDouble(cells.get(i).metrics());
      }
      across.put(e.getKey(), clip(interval(v), e.getKey().endsWith("%") ? 100 : Double.POSITIVE_INFINITY));
    }
    Map<String, Integer> duplicates = new LinkedHashMap<>();
    int stops = 0;
    for (LiveResults.Cell c : cells) {
      c.duplicates().forEach((k, n) -> duplicates.merge(k, n, Integer::sum));
      stops += c.breakerStops();
    }
    return new LiveResults.Summary(scenario, strategy, cells.size(), across, pooled, duplicates, stops);
  }

  /** {@code i} within what the metric can be: never below 0, never above {@code max}. */
  static LiveResults.Interval clip(LiveResults.Interval i, double max) {
    return new LiveResults.Interval(i.mean(), Math.max(0, i.low()), Math.min(max, i.high()));
  }

  /** The mean of {@code v} and its 95 % t-interval (the mean itself for a single value). */
  static LiveResults.Interval interval(double[] v) {
    double mean = 0;
    for (double x : v) {
      mean += x;
    }
    mean /= v.length;
    if (v.length < 2) {
      return new LiveResults.Interval(mean, mean, mean);
    }
    double ss = 0;
    for (double x : v) {
      ss += (x - mean) * (x - mean);
    }
    double sd = Math.sqrt(ss / (v.length - 1));
    double t = v.length - 1 <= T975.length ? T975[v.length - 2] : 1.96;
    double half = t * sd / Math.sqrt(v.length);
    return new LiveResults.Interval(mean, mean - half, mean + half);
  }
}
