package dev.hfr.bench.report;

import dev.hfr.bench.metrics.Metric;
import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.sim.RunTiming;
import dev.hfr.bench.sim.SyntheticPlan;
import dev.hfr.bench.sim.SyntheticResults;
import dev.hfr.bench.stats.MeanSd;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The synthetic part of the Markdown report: Tables 12-15 and C1 with the paper's figures beside ours,
 * the paired comparisons, and a generated sentence per table on where they differ.
 */
public final class SyntheticMarkdown {

  private final SyntheticResults r;
  private final RunTiming timing;
  private final WorkloadParameters params;
  private final PaperFigures paper;

  public SyntheticMarkdown(SyntheticResults results, RunTiming timing, WorkloadParameters params, PaperFigures paper) {
    this.r = results;
    this.timing = timing;
    this.params = params;
    this.paper = paper;
  }

  /** The section, starting with a level-2 heading; {@code chartFile} is the Pareto SVG's relative path. */
  public String render(String chartFile) {
    StringBuilder s = new StringBuilder();
    SyntheticPlan plan = r.plan();
    s.append("## Synthetic benchmark (paper §6.2–§6.5, Appendices B and C)\n\n");
    s.append(String.format(Locale.ROOT,
        "Each strategy is a configuration of the real engine (`dev.hfr.runtime.Hfr`: classifier, action table, retry gate, "
            + "budgets, breakers, ledger, verifier) driving simulated tools on a virtual clock. Main comparison: %d seeds (%s) × %s tasks "
            + "× %d strategies; fault-rate sweep: seed %d, %s tasks per point; incident sweep: %d seeds × %s tasks per point at "
            + "p_fault %s. Every strategy meets the same task and the same fault on the same attempt (counter-based random numbers), "
            + "so comparisons are paired.\n\n",
        plan.mainSeeds().size(), seedRange(plan.mainSeeds()), Fmt.thousands(plan.mainTasks()), plan.mainStrategies().size(),
        plan.sweepSeed(), Fmt.thousands(plan.sweepTasks()), plan.incidentSeeds().size(), Fmt.thousands(plan.incidentTasks()),
        Fmt.num(plan.incidentFaultRate(), 2)));
    if (timing != null) {
      s.append(String.format(Locale.ROOT,
          "Run time (%d worker threads): main comparison %s tasks in %s s (**%s tasks/s**)%s; "
              + "whole synthetic run %s tasks in %s s including the bootstrap. The machine is shared, so the wall time depends on "
              + "its other load; the CPU time does much less.\n\n",
          timing.threads(), Fmt.thousands(timing.mainTasks()),
          Fmt.num(timing.mainSeconds(), 1), Fmt.thousands(Math.round(timing.mainTasksPerSecond())), cpuTime(timing),
          Fmt.thousands(timing.totalTasks()), Fmt.num(timing.totalSeconds(), 1)));
      if (timing.idleWallSecondsEstimate() > 0) {
        double idle = timing.idleWallSecondsEstimate();
        s.append(String.format(Locale.ROOT,
            "The whole synthetic part used %s s of CPU time: on %d otherwise idle cores that is "
                + "about %s s of wall time, %s its %s s budget; the wall time above is what the shared machine gave it.%n%n",
            Fmt.num(timing.totalCpuSeconds(), 1), timing.threads(), Fmt.num(idle, 0),
            idle <= RunTiming.BUDGET_SECONDS ? "within" : "over", Fmt.num(RunTiming.BUDGET_SECONDS, 0)));
      }
    }
    FindingsMarkdown findings = new FindingsMarkdown(r, params, paper);
    s.append(findings.assumptions());
    s.append(findings.targets());
    table12(s);
    table13(s);
    extraMetrics(s);
    table14(s);
    comparisons(s);
    s.append(findings.endings());
    s.append(findings.duplicatePaths());
    s.append(findings.attempts());
    s.append(findings.degradationQuality());
    s.append(findings.latency());
    s.append(findings.retryAfter());
    s.append(findings.tableA());
    if (chartFile != null) {
      s.append("### Pareto chart (figure A of §6.6.6)\n\n");
      s.append("Mean cost per task and p95 latency against SCR, one point per strategy (main comparison, all seeds pooled); "
          + "the dashed line joins the strategies no other strategy beats on both axes.\n\n");
      s.append("![Pareto chart](").append(chartFile).append(")\n\n");
    }
    table15(s);
    tableC1(s);
    return s.toString();
  }

  private void table12(StringBuilder s) {
    s.append("### Table 12 — success and safety (mean ± sd over seeds; the paper's figure in parentheses)\n\n");
    s.append("| strategy | SR % | CSR % | SCR % | CPS | DUP/1000 | ESC % | DEG % |\n|---|---|---|---|---|---|---|---|\n");
    List<Differences.Row> rows = new ArrayList<>();
    for (SyntheticResults.StrategyResult sr : r.main()) {
      Map<Metric, MeanSd> m = sr.summary();
      Strategy st = sr.strategy();
      s.append("| ").append(st.label())
          .append(" | ").append(Fmt.pct(m.get(Metric.SR))).append(paperPct("table12", st, "sr"))
          .append(" | ").append(Fmt.pct(m.get(Metric.CSR))).append(paperPct("table12", st, "csr"))
          .append(" | ").append(Fmt.pct(m.get(Metric.SCR))).append(paperPct("table12", st, "scr"))
          .append(" | ").append(Fmt.meanSd(m.get(Metric.CPS), 3)).append(paperNum("table12", st, "cps", 3))
          .append(" | ").append(Fmt.meanSd(m.get(Metric.DUP_PER_1000), 2)).append(paperNum("table12", st, "dup", 2))
          .append(" | ").append(Fmt.pct(m.get(Metric.ESC))).append(paperPct("table12", st, "esc"))
          .append(" | ").append(Fmt.pct(m.get(Metric.DEG))).append(paperPct("table12", st, "deg"))
          .append(" |\n");
      rows.add(new Differences.Row(st.label(), 100 * m.get(Metric.SR).mean(), paper.cell("table12", st, "sr"), mechanisms(st, m)));
    }
    s.append("\n").append(Differences.sentence("SR", "pp", 2.0, rows)).append("\n\n");
  }

  private List<Differences.Mechanism> mechanisms(Strategy st, Map<Metric, MeanSd> m) {
    return List.of(
        new Differences.Mechanism("attempts per task", m.get(Metric.MEAN_ATTEMPTS).mean(), paper.cell("table13", st, "attempts"), ""),
        new Differences.Mechanism("DEG", 100 * m.get(Metric.DEG).mean(), paper.cell("table12", st, "deg"), " %"),
        new Differences.Mechanism("ESC", 100 * m.get(Metric.ESC).mean(), paper.cell("table12", st, "esc"), " %"),
        new Differences.Mechanism("mean cost", m.get(Metric.MEAN_COST).mean(), paper.cell("table13", st, "cost"), ""));
  }

  private void table13(StringBuilder s) {
    s.append("### Table 13 — cost, latency and attempts (mean ± sd over seeds; the paper's figure in parentheses)\n\n");
    s.append("| strategy | mean cost | p95 total (s) | p95 non-escalated (s) | attempts/task |\n|---|---|---|---|---|\n");
    List<Differences.Row> rows = new ArrayList<>();
    for (SyntheticResults.StrategyResult sr : r.main()) {
      Map<Metric, MeanSd> m = sr.summary();
      Strategy st = sr.strategy();
      s.append("| ").append(st.label())
          .append(" | ").append(Fmt.meanSd(m.get(Metric.MEAN_COST), 3)).append(paperNum("table13", st, "cost", 3))
          .append(" | ").append(Fmt.meanSd(m.get(Metric.P95), 2)).append(paperNum("table13", st, "p95", 2))
          .append(" | ").append(Fmt.meanSd(m.get(Metric.P95_NON_ESCALATED), 2)).append(paperNum("table13", st, "p95NonEsc", 2))
          .append(" | ").append(Fmt.meanSd(m.get(Metric.MEAN_ATTEMPTS), 2)).append(paperNum("table13", st, "attempts", 2))
          .append(" |\n");
      rows.add(new Differences.Row(st.label(), m.get(Metric.MEAN_COST).mean(), paper.cell("table13", st, "cost"), List.of(
          new Differences.Mechanism("attempts per task", m.get(Metric.MEAN_ATTEMPTS).mean(), paper.cell("table13", st, "attempts"), ""),
          new Differences.Mechanism("DEG", 100 * m.get(Metric.DEG).mean(), paper.cell("table12", st, "deg"), " %"),
          new Differences.Mechanism("ESC", 100 * m.get(Metric.ESC).mean(), paper.cell("table12", st, "esc"), " %"))));
    }
    s.append("\n").append(Differences.sentence("mean-cost", "cost units", 0.10, rows)).append("\n\n");
  }

  private void extraMetrics(StringBuilder s) {
    s.append("### Metrics the paper does not tabulate (§6.6.4; all seeds pooled)\n\n");
    s.append("| strategy | p50 (s) | p99 (s) | p50 non-esc (s) | p99 non-esc (s) | retry amplification | recovery mean (s) | recovery p95 (s) | false-accept % |\n");
    s.append("|---|---|---|---|---|---|---|---|---|\n");
    for (SyntheticResults.StrategyResult sr : r.main()) {
      RunMetrics p = sr.pooled();
      s.append("| ").append(sr.strategy().label())
          .append(" | ").append(Fmt.num(p.p50(), 2))
          .append(" | ").append(Fmt.num(p.p99(), 2))
          .append(" | ").append(Fmt.num(p.p50NonEscalated(), 2))
          .append(" | ").append(Fmt.num(p.p99NonEscalated(), 2))
          .append(" | ").append(Fmt.num(p.retryAmplification(), 3))
          .append(" | ").append(Fmt.num(p.meanRecoverySeconds(), 2))
          .append(" | ").append(Fmt.num(p.p95RecoverySeconds(), 2))
          .append(" | ").append(Fmt.pct(p.falseAcceptRate()))
          .append(" |\n");
    }
    s.append("\nRecovery time runs from a task's first failure to the end of the step that recovered from it (or to the end of "
        + "the escalation); false-accept rate is the share of tasks the harness accepted as done whose results were in truth wrong.\n\n");
  }

  private void table14(StringBuilder s) {
    SyntheticResults.StrategyResult hfr = r.result(Strategy.HFR);
    if (hfr == null) {
      return;
    }
    s.append("### Table 14 — ablations: change against full HFR (means over seeds; the paper's figure in parentheses)\n\n");
    s.append("| ablation | ΔSR pp | ΔCSR pp | ΔSCR pp | ΔCPS | ΔDUP/1000 |\n|---|---|---|---|---|---|\n");
    List<Differences.Row> rows = new ArrayList<>();
    for (Strategy st : List.of(Strategy.HFR_NO_VERIFIER, Strategy.HFR_NO_IDEMPOTENCY, Strategy.HFR_NO_BUDGET, Strategy.HFR_NO_BREAKER)) {
      SyntheticResults.StrategyResult a = r.result(st);
      if (a == null) {
        continue;
      }
      double dSr = 100 * (a.summary().get(Metric.SR).mean() - hfr.summary().get(Metric.SR).mean());
      double dCsr = 100 * (a.summary().get(Metric.CSR).mean() - hfr.summary().get(Metric.CSR).mean());
      double dScr = 100 * (a.summary().get(Metric.SCR).mean() - hfr.summary().get(Metric.SCR).mean());
      double dCps = a.summary().get(Metric.CPS).mean() - hfr.summary().get(Metric.CPS).mean();
      double dDup = a.summary().get(Metric.DUP_PER_1000).mean() - hfr.summary().get(Metric.DUP_PER_1000).mean();
      s.append("| ").append(st.label())
          .append(" | ").append(Fmt.signed(dSr, 2)).append(paperSigned("table14", st, "dSr", 2))
          .append(" | ").append(Fmt.signed(dCsr, 2)).append(paperSigned("table14", st, "dCsr", 2))
          .append(" | ").append(Fmt.signed(dScr, 2)).append(paperSigned("table14", st, "dScr", 2))
          .append(" | ").append(Fmt.signed(dCps, 3)).append(paperSigned("table14", st, "dCps", 3))
          .append(" | ").append(Fmt.signed(dDup, 2)).append(paperSigned("table14", st, "dDup", 2))
          .append(" |\n");
      rows.add(new Differences.Row(st.label() + " ΔSCR", dScr, paper.cell("table14", st, "dScr"), mechanisms(st, a.summary())));
    }
    s.append("\n").append(Differences.sentence("ΔSCR", "pp", 2.0, rows)).append("\n\n");
  }

  private void comparisons(StringBuilder s) {
    s.append("### Paired comparisons: HFR minus each strategy, per task, with 95 % bootstrap intervals (§6.6.5)\n\n");
    if (!r.comparisons().isEmpty()) {
      PairedComparison first = r.comparisons().get(0);
      s.append(String.format(Locale.ROOT, "%s tasks (all seeds pooled), %d resamples. An interval that excludes 0 marks a difference "
          + "the sample distinguishes from none.%n%n", Fmt.thousands(first.tasks()), first.resamples()));
    }
    s.append("| HFR vs | ΔSR pp | ΔCSR pp | ΔSCR pp | Δmean cost | CPS relative | Δlatency (s) | ΔDUP/1000 |\n|---|---|---|---|---|---|---|---|\n");
    for (PairedComparison c : r.comparisons()) {
      s.append("| ").append(c.b())
          .append(" | ").append(Fmt.ci(c.srPp(), 2))
          .append(" | ").append(Fmt.ci(c.csrPp(), 2))
          .append(" | ").append(Fmt.ci(c.scrPp(), 2))
          .append(" | ").append(Fmt.ci(c.meanCost(), 3))
          .append(" | ").append(Fmt.ci(c.cpsRelative(), 3))
          .append(" | ").append(Fmt.ci(c.meanLatencySeconds(), 2))
          .append(" | ").append(Fmt.ci(c.dupPer1000(), 2))
          .append(" |\n");
    }
    s.append("\n");
  }

  private void table15(StringBuilder s) {
    if (r.faultSweep().isEmpty()) {
      return;
    }
    List<Strategy> strategies = new ArrayList<>(r.faultSweep().get(0).metrics().keySet());
    s.append(String.format(Locale.ROOT, "### Table 15 — SR %% by base fault rate (seed %d, %s tasks per point; the paper's figure in parentheses)%n%n",
        r.plan().sweepSeed(), Fmt.thousands(r.plan().sweepTasks())));
    s.append("| p_fault |");
    strategies.forEach(st -> s.append(' ').append(st.label()).append(" |"));
    s.append("\n|---|");
    strategies.forEach(st -> s.append("---|"));
    s.append('\n');
    List<Differences.Row> rows = new ArrayList<>();
    for (SyntheticResults.SweepPoint p : r.faultSweep()) {
      s.append("| ").append(Fmt.num(p.faultRate(), 2)).append(" |");
      for (Strategy st : strategies) {
        RunMetrics m = p.metrics().get(st);
        double paperSr = paper.table15(st, p.faultRate());
        s.append(' ').append(Fmt.pct(m.sr())).append(Double.isNaN(paperSr) ? "" : " (" + Fmt.num(paperSr, 2) + ")").append(" |");
        rows.add(new Differences.Row(st.label() + " at " + Fmt.num(p.faultRate(), 2), 100 * m.sr(), paperSr, List.of(
            new Differences.Mechanism("attempts per task", m.meanAttempts(), Double.NaN, ""))));
      }
      s.append('\n');
    }
    s.append("\n").append(Differences.sentence("SR", "pp", 3.0, rows));
    SyntheticResults.SweepPoint lo = r.faultSweep().get(0);
    SyntheticResults.SweepPoint hi = r.faultSweep().get(r.faultSweep().size() - 1);
    if (lo.metrics().containsKey(Strategy.HFR) && lo.metrics().containsKey(Strategy.RETRY_ONLY)) {
      double gapLo = 100 * (lo.metrics().get(Strategy.HFR).sr() - lo.metrics().get(Strategy.RETRY_ONLY).sr());
      double gapHi = 100 * (hi.metrics().get(Strategy.HFR).sr() - hi.metrics().get(Strategy.RETRY_ONLY).sr());
      double paperLo = paper.table15(Strategy.HFR, lo.faultRate()) - paper.table15(Strategy.RETRY_ONLY, lo.faultRate());
      double paperHi = paper.table15(Strategy.HFR, hi.faultRate()) - paper.table15(Strategy.RETRY_ONLY, hi.faultRate());
      s.append(String.format(Locale.ROOT, " HFR's lead over RetryOnly goes from %s pp at p_fault %s to %s pp at %s (paper: %s to %s pp)%s.",
          Fmt.signed(gapLo, 2), Fmt.num(lo.faultRate(), 2), Fmt.signed(gapHi, 2), Fmt.num(hi.faultRate(), 2),
          Fmt.signed(paperLo, 2), Fmt.signed(paperHi, 2),
          (gapHi > gapLo) == (paperHi > paperLo) ? " — the same trend" : " — the trend differs from the paper's"));
    }
    s.append("\n\n");
  }

  private void tableC1(StringBuilder s) {
    if (r.incidentSweep().isEmpty()) {
      return;
    }
    s.append(String.format(Locale.ROOT, "### Table C1 — correlated incidents (%d seeds × %s tasks per point, p_fault %s, tool incident rate %s × "
            + "the provider's; mean ± sd; the paper's figure in parentheses)%n%n",
        r.plan().incidentSeeds().size(), Fmt.thousands(r.plan().incidentTasks()), Fmt.num(r.plan().incidentFaultRate(), 2),
        Fmt.num(r.plan().toolIncidentFactor(), 1)));
    s.append("| incident rate | strategy | SR % | mean cost | CPS | attempts/task | p95 (s) | SCR % |\n|---|---|---|---|---|---|---|---|\n");
    List<Differences.Row> rows = new ArrayList<>();
    for (SyntheticResults.IncidentPoint p : r.incidentSweep()) {
      for (Map.Entry<Strategy, Map<Metric, MeanSd>> e : p.summary().entrySet()) {
        Strategy st = e.getKey();
        Map<Metric, MeanSd> m = e.getValue();
        double rate = p.providerIncidentRate();
        s.append("| ").append(Fmt.num(rate, 2)).append(" | ").append(st.label())
            .append(" | ").append(Fmt.pct(m.get(Metric.SR))).append(paren(paper.tableC1(st, rate, "sr"), 2))
            .append(" | ").append(Fmt.meanSd(m.get(Metric.MEAN_COST), 3)).append(paren(paper.tableC1(st, rate, "cost"), 3))
            .append(" | ").append(Fmt.meanSd(m.get(Metric.CPS), 3)).append(paren(paper.tableC1(st, rate, "cps"), 3))
            .append(" | ").append(Fmt.meanSd(m.get(Metric.MEAN_ATTEMPTS), 2)).append(paren(paper.tableC1(st, rate, "attempts"), 2))
            .append(" | ").append(Fmt.meanSd(m.get(Metric.P95), 2))
            .append(" | ").append(Fmt.pct(m.get(Metric.SCR)))
            .append(" |\n");
        rows.add(new Differences.Row(st.label() + " at incident rate " + Fmt.num(rate, 2), 100 * m.get(Metric.SR).mean(),
            paper.tableC1(st, rate, "sr"), List.of(new Differences.Mechanism("attempts per task", m.get(Metric.MEAN_ATTEMPTS).mean(),
                paper.tableC1(st, rate, "attempts"), ""))));
      }
    }
    s.append("\n").append(Differences.sentence("SR", "pp", 3.0, rows)).append("\n\n");
  }

  private String paperPct(String table, Strategy st, String field) {
    double v = paper.cell(table, st, field);
    double sd = paper.cell(table, st, field + "Sd");
    if (Double.isNaN(v)) {
      return "";
    }
    return " (" + Fmt.num(v, 2) + (Double.isNaN(sd) ? "" : " ± " + Fmt.num(sd, 2)) + ")";
  }

  private String paperNum(String table, Strategy st, String field, int decimals) {
    double v = paper.cell(table, st, field);
    double sd = paper.cell(table, st, field + "Sd");
    if (Double.isNaN(v)) {
      return "";
    }
    return " (" + Fmt.num(v, decimals) + (Double.isNaN(sd) ? "" : " ± " + Fmt.num(sd, decimals)) + ")";
  }

  private String paperSigned(String table, Strategy st, String field, int decimals) {
    double v = paper.cell(table, st, field);
    return Double.isNaN(v) ? "" : " (" + Fmt.signed(v, decimals) + ")";
  }

  private static String paren(double v, int decimals) {
    return Double.isNaN(v) ? "" : " (" + Fmt.num(v, decimals) + ")";
  }

  private static String seedRange(List<Long> seeds) {
    if (seeds.size() == 1) {
      return String.valueOf(seeds.get(0));
    }
    return seeds.get(0) + "–" + seeds.get(seeds.size() - 1);
  }

  /** The workload parameters as a Markdown list (Table B1 and our assumptions). */
  public String parameters() {
    WorkloadParameters p = params;
    StringBuilder s = new StringBuilder();
    s.append("### Workload parameters\n\n");
    s.append("From the paper's Table B1 (read from `paper-figures.json`): p_fault ").append(Fmt.num(p.pFault(), 2))
        .append("; criticality ").append(p.criticalityMix())
        .append("; step kinds ").append(p.stepKindMix())
        .append("; model tiers ").append(p.modelTiers())
        .append("; tool tiers ").append(p.toolTiers())
        .append("; backoff ").append(Fmt.num(p.backoffBaseSeconds(), 2)).append(" s / ").append(Fmt.num(p.backoffCapSeconds(), 2))
        .append(" s; retry budgets ").append(p.retryBudgetPerStep()).append(" per step / ").append(p.retryBudgetPerTask())
        .append(" per task; stickiness ").append(Fmt.num(p.stickiness(), 2))
        .append("; verifier detection ").append(Fmt.num(p.verifierDetectionSemantic(), 2)).append(" semantic / ")
        .append(Fmt.num(p.verifierDetectionTool(), 2)).append(" tool, false alarm ").append(Fmt.num(p.verifierFalseAlarm(), 2))
        .append("; escalation ").append(Fmt.num(p.escalationLatencySeconds(), 1)).append(" s / cost ")
        .append(Fmt.num(p.escalationCost(), 2)).append(".\n\n");
    s.append("Our assumptions where the paper is silent (`workload-assumptions.json`): model fault mix ").append(p.modelFaultMix())
        .append("; tool fault mix ").append(p.toolFaultMix())
        .append("; a timed-out write had committed with probability ").append(Fmt.num(p.writeCommitsBeforeTimeout(), 2))
        .append("; a timeout takes ").append(Fmt.num(p.timeoutLatencyFactor(), 2)).append("× the tier's latency, other failures ")
        .append(Fmt.num(p.fastFailureLatencyFactor(), 2)).append("×; 429s carry Retry-After ").append(p.retryAfterSeconds())
        .append(" s; degraded-result success penalty per rung ").append(p.degradedQualityPenalty())
        .append("; write model: ").append(p.writeModel().describe())
        .append("; task deadline ").append(Fmt.num(p.taskDeadlineSeconds(), 0)).append(" s; incident windows of ")
        .append(p.incidentWindowTasks()).append(" consecutive tasks in which the primary tier fails ")
        .append(Fmt.num(100 * p.incidentFailureProbability(), 0)).append(" % of attempts with 503.\n\n");
    return s.toString();
  }

  private static String cpuTime(RunTiming timing) {
    if (timing.mainCpuSeconds() <= 0) {
      return "";
    }
    return String.format(Locale.ROOT, ", using %s s of CPU time (%s tasks per CPU second)", Fmt.num(timing.mainCpuSeconds(), 1),
        Fmt.thousands(Math.round(timing.mainTasksPerCpuSecond())));
  }

}
