package dev.hfr.bench.live;

import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.stats.Estimate;
import dev.hfr.bench.stats.PairedComparison;
import java.util.Locale;
import java.util.Map;

/** The live part of the Markdown report. */
public final class LiveMarkdown {

  private final LiveResults r;

  public LiveMarkdown(LiveResults results) {
    this.r = results;
  }

  public String render() {
    LivePlan p = r.plan();
    StringBuilder s = new StringBuilder();
    s.append("## Live benchmark (paper §6.6: Table 16 faults on the wire)\n\n");
    s.append(String.format(Locale.ROOT,
        "Real HTTP services on 127.0.0.1 started by the benchmark: an LLM-style endpoint with two model tiers (429 + `retry-after`, "
            + "529 `overloaded_error`, `context_length_exceeded`, `content_filter`, 5xx, malformed and plausible-but-wrong answers, "
            + "held and dropped connections), a search service and its cache (R0), an order service with lookup (R2), a payment "
            + "service honouring `Idempotency-Key` (R1) and an e-mail service (R3). Each task plans with the model, searches, places "
            + "an order, charges and sends a confirmation, through the processor-generated `*_Recovering` proxies of the annotated tool "
            + "classes, %d tasks in flight at once. Writes can commit and then lose their response (held past the %d ms client "
            + "timeout, or the connection dropped). Duplicates, wrong answers and cost are counted by the services. %d tasks per "
            + "scenario and strategy; the fault schedule is a function of seed %d, task and attempt, so every strategy meets the same "
            + "faults. The whole live run took %s s.%n%n",
        p.concurrency(), p.clientTimeoutMillis(), p.tasksPerCell(), p.seed(), num(r.wallSeconds(), 1)));
    s.append("| scenario | strategy | SR % | CSR % | SCR % | DUP/1000 | ESC % | DEG % | cost/task | p50 (s) | p95 (s) | p99 (s) | p95 non-esc (s) "
        + "| RA | false-accept % | recovery (s) | breaker stops | duplicates by service |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (LiveResults.Cell c : r.cells()) {
      RunMetrics m = c.metrics();
      s.append("| ").append(c.scenario()).append(" | ").append(c.strategy().label())
          .append(" | ").append(pct(m.sr())).append(" | ").append(pct(m.csr())).append(" | ").append(pct(m.scr()))
          .append(" | ").append(num(m.dupPer1000(), 1)).append(" | ").append(pct(m.esc())).append(" | ").append(pct(m.deg()))
          .append(" | ").append(num(m.meanCost(), 3)).append(" | ").append(num(m.p50(), 3)).append(" | ").append(num(m.p95(), 3))
          .append(" | ").append(num(m.p99(), 3)).append(" | ").append(num(m.p95NonEscalated(), 3))
          .append(" | ").append(num(m.retryAmplification(), 2)).append(" | ").append(pct(m.falseAcceptRate()))
          .append(" | ").append(num(m.meanRecoverySeconds(), 3)).append(" | ").append(c.breakerStops())
          .append(" | ").append(dups(c.duplicates())).append(" |\n");
    }
    s.append('\n').append(breakerSentence()).append('\n');
    s.append("\n### Live paired comparisons: HFR minus each strategy, same tasks and fault schedule, 95 % bootstrap intervals\n\n");
    s.append("| scenario | HFR vs | ΔSR pp | ΔCSR pp | ΔSCR pp | Δcost/task | Δlatency (s) | ΔDUP/1000 |\n|---|---|---|---|---|---|---|---|\n");
    for (LiveResults.ScenarioComparison sc : r.comparisons()) {
      for (PairedComparison c : sc.comparisons()) {
        s.append("| ").append(sc.scenario()).append(" | ").append(c.b())
            .append(" | ").append(ci(c.srPp(), 2)).append(" | ").append(ci(c.csrPp(), 2)).append(" | ").append(ci(c.scrPp(), 2))
            .append(" | ").append(ci(c.meanCost(), 3)).append(" | ").append(ci(c.meanLatencySeconds(), 3))
            .append(" | ").append(ci(c.dupPer1000(), 1)).append(" |\n");
      }
    }
    s.append('\n');
    return s.toString();
  }

  /**
   * Where HFR and HFR without breakers differ most, and how many attempts open breakers stopped there —
   * generated from the cells.
   */
  String breakerSentence() {
    String worst = null;
    double worstGap = 0;
    LiveResults.Cell worstHfr = null;
    LiveResults.Cell worstNoBreaker = null;
    for (LiveResults.Cell h : r.cells()) {
      if (h.strategy() != dev.hfr.bench.strategy.Strategy.HFR) {
        continue;
      }
      for (LiveResults.Cell n : r.cells()) {
        if (n.strategy() == dev.hfr.bench.strategy.Strategy.HFR_NO_BREAKER && n.scenario().equals(h.scenario())) {
          double gap = 100 * (n.metrics().sr() - h.metrics().sr());
          if (worst == null || Math.abs(gap) > Math.abs(worstGap)) {
            worst = h.scenario();
            worstGap = gap;
            worstHfr = h;
            worstNoBreaker = n;
          }
        }
      }
    }
    if (worst == null) {
      return "";
    }
    String first = String.format(Locale.ROOT,
        "Circuit breakers: HFR and HFR-circuit-breaker differ most at %s, where SR is %s %% with breakers and %s %% without "
            + "(%s pp) and open breakers stopped %d attempts.",
        worst, pct(worstHfr.metrics().sr()), pct(worstNoBreaker.metrics().sr()), (worstGap > 0 ? "+" : "") + num(worstGap, 1),
        worstHfr.breakerStops());
    if (worstGap <= 0 || worstHfr.breakerStops() == 0) {
      return first;
    }
    long cooldown = dev.hfr.runtime.breaker.CircuitBreakerConfig.defaults().cooldown().toSeconds();
    return first + String.format(Locale.ROOT, " A tripped breaker stays open for its cooldown (%d s by default), longer than "
        + "the whole cell lasted here (%s s), so on a tool without a degradation rung it fails the remaining tasks fast "
        + "instead of retrying them: the engine's breaker thresholds are tuned for minutes of traffic, not for a burst of %d tasks.",
        cooldown, num(worstHfr.seconds(), 1), worstHfr.metrics().tasks());
  }

  private static String dups(Map<String, Integer> d) {
    StringBuilder s = new StringBuilder();
    d.forEach((k, v) -> {
      if (s.length() > 0) {
        s.append(", ");
      }
      s.append(k).append(' ').append(v);
    });
    return s.toString();
  }

  private static String pct(double f) {
    return num(100 * f, 1);
  }

  private static String num(double v, int d) {
    return Double.isFinite(v) ? String.format(Locale.ROOT, "%." + d + "f", v) : (Double.isNaN(v) ? "n/a" : "∞");
  }

  private static String ci(Estimate e, int d) {
    String p = num(e.point(), d);
    return (e.point() > 0 ? "+" : "") + p + " [" + num(e.low(), d) + ", " + num(e.high(), d) + "]";
  }
}
