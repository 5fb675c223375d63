package dev.hfr.bench.live;

import dev.hfr.bench.stats.Estimate;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
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
            + "timeout, or the connection dropped). Duplicates, wrong answers and cost are counted by the services. %d fault-schedule "
            + "seeds (%s) × %d tasks per scenario and strategy; a schedule is a function of its seed, the task and the attempt, so "
            + "every strategy meets the same faults. The verifiers err at the paper's rates (Table B1): they catch a wrong model answer "
            + "with probability %s and a wrong search result with %s, and reject a right one with %s. An escalation costs %s and "
            + "adds %s s to the task's latency, as in the synthetic part (added to the measured latency, not slept). The whole live "
            + "run took %s s.%n%n",
        p.concurrency(), p.clientTimeoutMillis(), p.seeds(), seedList(p.scheduleSeeds()), p.tasksPerCell(),
        num(p.verifierNoise().detectionSemantic(), 2), num(p.verifierNoise().detectionTool(), 2), num(p.verifierNoise().falseAlarm(), 2),
        num(p.escalationCost(), 2), num(p.escalationSeconds(), 1), num(r.wallSeconds(), 1)));
    s.append("Not on the wire yet: Table 16's process crash of the client mid-task with resume — the runtime checkpoints tasks "
        + "and `Hfr.resumePending()` returns the cut-off ones (samples' `KillResumeTest` kills and resumes a worker JVM), but "
        + "this bench does not kill its client — and a prompt-injection-style tool output, which no verifier or classifier of "
        + "the runtime looks for yet.\n\n");
    s.append("Mean over seeds with its 95 % interval across seeds (Student's t, clipped to what the metric can be). With a few "
        + "seeds these intervals are wide; the paired comparisons below pool the seeds' tasks and are much tighter.\n\n");
    s.append("| scenario | strategy |");
    LiveSummaries.METRICS.keySet().forEach(k -> s.append(' ').append(k).append(" |"));
    s.append(" breaker stops | duplicates by service |\n|---|---|");
    LiveSummaries.METRICS.keySet().forEach(k -> s.append("---|"));
    s.append("---|---|\n");
    for (LiveResults.Summary sm : r.summaries()) {
      s.append("| ").append(sm.scenario()).append(" | ").append(sm.strategy().label()).append(" |");
      sm.acrossSeeds().forEach((k, v) -> s.append(' ').append(interval(v, k.contains("(s)") || k.startsWith("cost") ? 3 : 1)).append(" |"));
      s.append(' ').append(sm.breakerStops()).append(" | ").append(dups(sm.duplicates())).append(" |\n");
    }
    s.append('\n').append(ablationSentence()).append(' ').append(breakerSentence()).append('\n');
    s.append("\n### Live paired comparisons: HFR minus each strategy, same tasks and fault schedules (all seeds pooled), 95 % bootstrap intervals\n\n");
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

  private LiveResults.Summary summary(String scenario, Strategy strategy) {
    for (LiveResults.Summary sm : r.summaries()) {
      if (sm.scenario().equals(scenario) && sm.strategy() == strategy) {
        return sm;
      }
    }
    return null;
  }

  /** What the live ablations cost HFR, at the scenario with the most faults — generated from the summaries. */
  String ablationSentence() {
    String worst = r.plan().scenarios().stream().filter(sc -> sc.burstShare() == 0)
        .max(java.util.Comparator.comparingDouble(LiveScenario::faultRate)).map(LiveScenario::name).orElse(null);
    LiveResults.Summary hfr = worst == null ? null : summary(worst, Strategy.HFR);
    LiveResults.Summary noIdem = worst == null ? null : summary(worst, Strategy.HFR_NO_IDEMPOTENCY);
    LiveResults.Summary noVer = worst == null ? null : summary(worst, Strategy.HFR_NO_VERIFIER);
    if (hfr == null || noIdem == null || noVer == null) {
      return "";
    }
    return String.format(Locale.ROOT,
        "Live ablations at %s: without idempotency keys HFR's DUP/1000 goes from %s to %s and its CSR from %s %% to %s %%; without "
            + "the verifier its false-accept rate goes from %s %% to %s %% and its SR from %s %% to %s %%.",
        worst, num(hfr.pooled().dupPer1000(), 1), num(noIdem.pooled().dupPer1000(), 1), pct(hfr.pooled().csr()),
        pct(noIdem.pooled().csr()), pct(hfr.pooled().falseAcceptRate()), pct(noVer.pooled().falseAcceptRate()),
        pct(hfr.pooled().sr()), pct(noVer.pooled().sr()));
  }

  /**
   * Where HFR and HFR without breakers differ most, and how many attempts open breakers stopped there —
   * generated from the summaries.
   */
  String breakerSentence() {
    LiveResults.Summary worstHfr = null;
    LiveResults.Summary worstNoBreaker = null;
    double worstGap = 0;
    for (LiveResults.Summary h : r.summaries()) {
      if (h.strategy() != Strategy.HFR) {
        continue;
      }
      LiveResults.Summary n = summary(h.scenario(), Strategy.HFR_NO_BREAKER);
      if (n == null) {
        continue;
      }
      double gap = 100 * (n.pooled().sr() - h.pooled().sr());
      if (worstHfr == null || Math.abs(gap) > Math.abs(worstGap)) {
        worstGap = gap;
        worstHfr = h;
        worstNoBreaker = n;
      }
    }
    if (worstHfr == null) {
      return "";
    }
    return String.format(Locale.ROOT,
        "Circuit breakers: HFR and HFR-circuit-breaker differ most at %s, where SR is %s %% with breakers and %s %% without "
            + "(%s pp, all seeds pooled) and open breakers stopped %d attempts.",
        worstHfr.scenario(), pct(worstHfr.pooled().sr()), pct(worstNoBreaker.pooled().sr()), (worstGap > 0 ? "+" : "") + num(worstGap, 1),
        worstHfr.breakerStops());
  }

  private static String interval(LiveResults.Interval v, int d) {
    if (v.low() == v.high()) {
      return num(v.mean(), d);
    }
    return num(v.mean(), d) + " [" + num(v.low(), d) + ", " + num(v.high(), d) + "]";
  }

  private static String seedList(java.util.List<Long> seeds) {
    StringBuilder s = new StringBuilder();
    for (long x : seeds) {
      if (s.length() > 0) {
        s.append(", ");
      }
      s.append(x);
    }
    return s.toString();
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
