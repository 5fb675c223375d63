package dev.hfr.bench.report;

import dev.hfr.annotations.Fault;
import dev.hfr.bench.metrics.Breakdown;
import dev.hfr.bench.metrics.Metric;
import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.sim.LatencySplit;
import dev.hfr.bench.sim.SyntheticResults;
import dev.hfr.bench.sim.SyntheticResults.StrategyResult;
import dev.hfr.bench.sim.SyntheticResults.VariantResult;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The parts of the synthetic report that say why the figures are what they are: the modelling
 * assumptions and how far each moves the headline, the targets checked, the escalations and
 * failures by reason and fault class, attempts by class, the degradation quality delta, where latency
 * goes, Table A and FixedRetry3's handling of Retry-After. Every sentence is computed from the tables it
 * sits under.
 */
final class FindingsMarkdown {

  /** Endings below this share of a strategy's tasks are summed into one "other" row. */
  private static final double SMALL_ENDING = 0.0010;

  private final SyntheticResults r;
  private final WorkloadParameters params;
  private final PaperFigures paper;

  FindingsMarkdown(SyntheticResults results, WorkloadParameters params, PaperFigures paper) {
    this.r = results;
    this.params = params;
    this.paper = paper;
  }

  /** One column of the assumption table: a figure of one strategy. */
  private record Column(String label, Strategy strategy, ToDoubleFunction<RunMetrics> value, double scale, int decimals) {}

  private static final List<Column> COLUMNS = List.of(
      new Column("HFR SR", Strategy.HFR, RunMetrics::sr, 100, 2),
      new Column("HFR ESC", Strategy.HFR, RunMetrics::esc, 100, 2),
      new Column("HFR SCR", Strategy.HFR, RunMetrics::scr, 100, 2),
      new Column("HFR p95 (s)", Strategy.HFR, RunMetrics::p95, 1, 2),
      new Column("FixedRetry3 SR", Strategy.FIXED_RETRY3, RunMetrics::sr, 100, 2),
      new Column("FixedRetry3 DUP/1000", Strategy.FIXED_RETRY3, RunMetrics::dupPer1000, 1, 2),
      new Column("RetryOnly SR", Strategy.RETRY_ONLY, RunMetrics::sr, 100, 2),
      new Column("DegradeOnly SR", Strategy.DEGRADE_ONLY, RunMetrics::sr, 100, 2),
      new Column("HFR-idempotency DUP/1000", Strategy.HFR_NO_IDEMPOTENCY, RunMetrics::dupPer1000, 1, 2));

  // ---- assumptions ---------------------------------------------------------------------------------

  String assumptions() {
    StringBuilder s = new StringBuilder();
    if (r.variants().isEmpty()) {
      return "";
    }
    VariantResult strict = r.variants().get(0);
    s.append("### Modelling assumptions that move the headline\n\n");
    s.append("The headline runs the paper-consistent write model: ").append(params.writeModel().describe())
        .append(". The paper's own figures imply it: its FixedRetry3 DUP/1000 (17.47) equals its HFR − idempotency ΔDUP/1000 "
            + "(17.68), so only writes that timed out were ever duplicated, never writes whose result was rejected; and Table 5 "
            + "allows an equivalent tool at L2 at every criticality. Beside it runs our stricter model — ")
        .append(strict.name()).append(" — on the same seeds and tasks:\n\n");
    s.append("| strategy | write model | SR % | CSR % | SCR % | DUP/1000 | ESC % | DEG % | p95 (s) | attempts/task |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|\n");
    for (StrategyResult h : r.main()) {
      StrategyResult st = strict.result(h.strategy());
      row(s, h.strategy().label(), "paper-consistent (headline)", h.summary());
      if (st != null) {
        row(s, h.strategy().label(), "strict", st.summary());
      }
      double paperSr = paper.cell("table12", h.strategy(), "sr");
      if (!Double.isNaN(paperSr)) {
        s.append("| ").append(h.strategy().label()).append(" | the paper's | ").append(Fmt.num(paperSr, 2))
            .append(" | ").append(Fmt.num(paper.cell("table12", h.strategy(), "csr"), 2))
            .append(" | ").append(Fmt.num(paper.cell("table12", h.strategy(), "scr"), 2))
            .append(" | ").append(Fmt.num(paper.cell("table12", h.strategy(), "dup"), 2))
            .append(" | ").append(Fmt.num(paper.cell("table12", h.strategy(), "esc"), 2))
            .append(" | ").append(Fmt.num(paper.cell("table12", h.strategy(), "deg"), 2))
            .append(" | ").append(Fmt.num(paper.cell("table13", h.strategy(), "p95"), 2))
            .append(" | ").append(Fmt.num(paper.cell("table13", h.strategy(), "attempts"), 2)).append(" |\n");
      }
    }
    s.append('\n');

    s.append("Every other assumption of ours (`workload-assumptions.json`), changed alone: the change of each figure against the "
        + "headline on the same seeds and tasks (paired by common random numbers; the first row is the strict write model "
        + "above, on all the headline's seeds).\n\n");
    s.append("| assumption changed | seeds |");
    COLUMNS.forEach(c -> s.append(" Δ ").append(c.label()).append(" |"));
    s.append("\n|---|---|");
    COLUMNS.forEach(c -> s.append("---|"));
    s.append('\n');
    double[][] deltas = new double[r.variants().size()][COLUMNS.size()];
    for (int vi = 0; vi < r.variants().size(); vi++) {
      VariantResult v = r.variants().get(vi);
      s.append("| ").append(v.name()).append(" | ").append(v.seeds().size()).append(" |");
      for (int ci = 0; ci < COLUMNS.size(); ci++) {
        Column c = COLUMNS.get(ci);
        double d = delta(v, c);
        deltas[vi][ci] = d;
        s.append(' ').append(Double.isNaN(d) ? "—" : Fmt.signed(d, c.decimals())).append(" |");
      }
      s.append('\n');
    }
    s.append('\n');
    List<String> movers = new ArrayList<>();
    for (int ci = 0; ci < COLUMNS.size(); ci++) {
      int best = -1;
      for (int vi = 0; vi < r.variants().size(); vi++) {
        if (!Double.isNaN(deltas[vi][ci]) && (best < 0 || Math.abs(deltas[vi][ci]) > Math.abs(deltas[best][ci]))) {
          best = vi;
        }
      }
      if (best >= 0) {
        movers.add(String.format(Locale.ROOT, "%s by %s (%s)", COLUMNS.get(ci).label(), Fmt.signed(deltas[best][ci],
            COLUMNS.get(ci).decimals()), r.variants().get(best).name()));
      }
    }
    s.append("The assumption that moves each figure most: ").append(String.join("; ", movers)).append(".\n\n");
    return s.toString();
  }

  private static void row(StringBuilder s, String strategy, String model, Map<Metric, dev.hfr.bench.stats.MeanSd> m) {
    s.append("| ").append(strategy).append(" | ").append(model)
        .append(" | ").append(Fmt.pct(m.get(Metric.SR).mean()))
        .append(" | ").append(Fmt.pct(m.get(Metric.CSR).mean()))
        .append(" | ").append(Fmt.pct(m.get(Metric.SCR).mean()))
        .append(" | ").append(Fmt.num(m.get(Metric.DUP_PER_1000).mean(), 2))
        .append(" | ").append(Fmt.pct(m.get(Metric.ESC).mean()))
        .append(" | ").append(Fmt.pct(m.get(Metric.DEG).mean()))
        .append(" | ").append(Fmt.num(m.get(Metric.P95).mean(), 2))
        .append(" | ").append(Fmt.num(m.get(Metric.MEAN_ATTEMPTS).mean(), 2)).append(" |\n");
  }

  /** The variant's figure minus the headline's, on the variant's seeds (the headline's first ones). */
  private double delta(VariantResult v, Column c) {
    StrategyResult vr = v.result(c.strategy());
    StrategyResult hr = r.result(c.strategy());
    if (vr == null || hr == null) {
      return Double.NaN;
    }
    int k = v.seeds().size();
    double ours = 0;
    double base = 0;
    for (int i = 0; i < k; i++) {
      ours += c.value().applyAsDouble(vr.perSeed().get(i));
      base += c.value().applyAsDouble(hr.perSeed().get(i));
    }
    return c.scale() * (ours - base) / k;
  }

  // ---- targets -------------------------------------------------------------------------------------

  String targets() {
    StrategyResult hfr = r.result(Strategy.HFR);
    if (hfr == null) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    s.append("### The paper's headline, checked (paper-consistent model)\n\n");
    double sr = 100 * hfr.summary().get(Metric.SR).mean();
    double esc = 100 * hfr.summary().get(Metric.ESC).mean();
    double scr = 100 * hfr.summary().get(Metric.SCR).mean();
    double dup = hfr.summary().get(Metric.DUP_PER_1000).mean();
    double paperSr = paper.cell("table12", Strategy.HFR, "sr");
    double paperEsc = paper.cell("table12", Strategy.HFR, "esc");
    double paperScr = paper.cell("table12", Strategy.HFR, "scr");
    s.append("| target | ours | met |\n|---|---|---|\n");
    target(s, "HFR SR within 2 pp of the paper's " + Fmt.num(paperSr, 2) + " %", Fmt.num(sr, 2) + " %", Math.abs(sr - paperSr) <= 2);
    target(s, "HFR ESC within 1 pp of the paper's " + Fmt.num(paperEsc, 2) + " %", Fmt.num(esc, 2) + " %", Math.abs(esc - paperEsc) <= 1);
    target(s, "HFR SCR at least the paper's " + Fmt.num(paperScr, 2) + " %", Fmt.num(scr, 2) + " %", scr >= paperScr);
    target(s, "HFR DUP/1000 = 0", Fmt.num(dup, 2), dup == 0);
    PairedComparison vsFixed = comparison(Strategy.FIXED_RETRY3);
    if (vsFixed != null) {
      target(s, "HFR SR at least FixedRetry3's (paired 95 % interval not wholly below 0)", "ΔSR " + Fmt.ci(vsFixed.srPp(), 2) + " pp",
          vsFixed.srPp().low() >= 0 || !vsFixed.srPp().excludesZero());
    }
    s.append('\n');
    s.append(escalationGap(hfr, paperEsc, sr, paperSr));
    return s.toString();
  }

  private static void target(StringBuilder s, String what, String ours, boolean met) {
    s.append("| ").append(what).append(" | ").append(ours).append(" | ").append(met ? "yes" : "**no**").append(" |\n");
  }

  private PairedComparison comparison(Strategy other) {
    for (PairedComparison c : r.comparisons()) {
      if (c.b().equals(other.label())) {
        return c;
      }
    }
    return null;
  }

  /** The sentence that names the decisions behind HFR's escalation and success gaps. */
  private String escalationGap(StrategyResult hfr, double paperEsc, double sr, double paperSr) {
    double tasks = hfr.pooled().tasks();
    Map<String, Long> escalated = new java.util.LinkedHashMap<>();
    Map<String, Long> lost = new java.util.LinkedHashMap<>();
    long writeRejected = 0;
    for (Breakdown.Count c : hfr.breakdown().endings()) {
      Breakdown.Ending e = c.ending();
      String what = e.step().toLowerCase(Locale.ROOT).replace('_', ' ') + " step, " + e.fault() + ", " + e.reason();
      if (e.outcome() == Breakdown.Outcome.ESCALATED) {
        escalated.merge(what, c.tasks(), Long::sum);
        if (e.step().equals("WRITE_TOOL") && e.fault().equals(Fault.V1.name())) {
          writeRejected += c.tasks();
        }
      } else {
        lost.merge(e.outcome().label() + " at a " + what, c.tasks(), Long::sum);
      }
    }
    double esc = 100 * hfr.summary().get(Metric.ESC).mean();
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT,
        "HFR's ESC is %s pp from the paper's and its SR %s pp. The engine's decisions behind them (share of all tasks, all "
            + "criticalities together; the full table is below): the largest escalations are %s; the largest other losses are %s.",
        Fmt.signed(esc - paperEsc, 2), Fmt.signed(sr - paperSr, 2), top(escalated, tasks), top(lost, tasks)));
    if (writeRejected > 0) {
      double pp = 100 * writeRejected / tasks;
      s.append(String.format(Locale.ROOT,
          " Escalated writes whose result the verifier rejected are %s pp: the engine reconciles such a write, compensates it if it "
              + "took effect and retries it with new evidence when its tool can be looked up and undone (the write model's "
              + "assumption, measured above), and escalates it otherwise — or when the retry is refused at a high criticality. "
              + "Without them HFR's ESC would be %s %% against the paper's %s %%; and if every one of them had been retried to "
              + "success, its SR would be at most %s %% against the paper's %s %%.",
          Fmt.num(pp, 2), Fmt.num(esc - pp, 2), Fmt.num(paperEsc, 2), Fmt.num(sr + pp, 2), Fmt.num(paperSr, 2)));
    }
    return s.append("\n\n").toString();
  }

  /** The four largest entries of {@code counts} as "what x.xx pp". */
  private static String top(Map<String, Long> counts, double tasks) {
    List<Map.Entry<String, Long>> sorted = new ArrayList<>(counts.entrySet());
    sorted.sort(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()));
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Long> e : sorted.subList(0, Math.min(4, sorted.size()))) {
      out.add(e.getKey() + " " + Fmt.num(100 * e.getValue() / tasks, 2) + " pp");
    }
    return out.isEmpty() ? "none" : String.join("; ", out);
  }

  // ---- breakdowns ----------------------------------------------------------------------------------

  String endings() {
    StringBuilder s = new StringBuilder();
    s.append("### Escalations and failures by reason and fault class (all seeds pooled; share of all tasks)\n\n");
    s.append("Each task that did not succeed, by how it ended, at which kind of step, after which fault class (V1: the verifier "
        + "rejected the result; UNCLASSIFIED: the strategy does not classify) and for which reason of the engine's; the last column "
        + "is the part at HIGH criticality. \"Failed: nobody to escalate to\" is a baseline's task where the engine asked for a human "
        + "the baseline does not have. Rows under " + Fmt.num(100 * SMALL_ENDING, 2) + " % of tasks are summed per strategy.\n\n");
    s.append("| strategy | ending | step | fault | reason | % of tasks | of which at HIGH criticality |\n|---|---|---|---|---|---|---|\n");
    for (StrategyResult sr : r.main()) {
      long tasks = sr.pooled().tasks();
      Map<String, long[]> grouped = new java.util.LinkedHashMap<>();
      for (Breakdown.Count c : sr.breakdown().endings()) {
        Breakdown.Ending e = c.ending();
        long[] n = grouped.computeIfAbsent(e.outcome().label() + " | " + e.step() + " | " + e.fault() + " | " + e.reason(),
            k -> new long[2]);
        n[0] += c.tasks();
        n[1] += e.criticality().equals("HIGH") ? c.tasks() : 0;
      }
      List<Map.Entry<String, long[]>> rows = new ArrayList<>(grouped.entrySet());
      rows.sort((a, b) -> a.getValue()[0] != b.getValue()[0] ? Long.compare(b.getValue()[0], a.getValue()[0]) : a.getKey().compareTo(b.getKey()));
      long other = 0;
      for (Map.Entry<String, long[]> row : rows) {
        double share = (double) row.getValue()[0] / tasks;
        if (share < SMALL_ENDING) {
          other += row.getValue()[0];
          continue;
        }
        s.append("| ").append(sr.strategy().label()).append(" | ").append(row.getKey()).append(" | ").append(Fmt.num(100 * share, 2))
            .append(" | ").append(Fmt.num(100.0 * row.getValue()[1] / tasks, 2)).append(" |\n");
      }
      if (other > 0) {
        s.append("| ").append(sr.strategy().label()).append(" | other | | | | ").append(Fmt.num(100.0 * other / tasks, 2)).append(" | |\n");
      }
    }
    s.append('\n');
    List<String> gaps = new ArrayList<>();
    for (StrategyResult sr : r.main()) {
      double paperSr = paper.cell("table12", sr.strategy(), "sr");
      if (Double.isNaN(paperSr)) {
        continue;
      }
      Map<String, Long> losses = new java.util.LinkedHashMap<>();
      for (Breakdown.Count c : sr.breakdown().endings()) {
        Breakdown.Ending e = c.ending();
        losses.merge(e.outcome().label() + " at a " + e.step().toLowerCase(Locale.ROOT).replace('_', ' ') + " step, " + e.fault()
            + ", " + e.reason(), c.tasks(), Long::sum);
      }
      gaps.add(String.format(Locale.ROOT, "%s %s pp from the paper's SR (largest losses: %s)", sr.strategy().label(),
          Fmt.signed(100 * sr.summary().get(Metric.SR).mean() - paperSr, 2), top(losses, sr.pooled().tasks())));
    }
    s.append("Each strategy's SR gap to the paper and the endings that cost it most: ").append(String.join("; ", gaps)).append(".\n\n");
    s.append("| strategy | escalated % | failed: nobody to escalate to % | failed % | accepted a wrong result % |\n|---|---|---|---|---|\n");
    for (StrategyResult sr : r.main()) {
      double n = sr.pooled().tasks();
      Breakdown b = sr.breakdown();
      s.append("| ").append(sr.strategy().label())
          .append(" | ").append(Fmt.num(100 * b.tasks(Breakdown.Outcome.ESCALATED) / n, 2))
          .append(" | ").append(Fmt.num(100 * b.tasks(Breakdown.Outcome.NO_ESCALATION_PATH) / n, 2))
          .append(" | ").append(Fmt.num(100 * b.tasks(Breakdown.Outcome.FAILED) / n, 2))
          .append(" | ").append(Fmt.num(100 * b.tasks(Breakdown.Outcome.WRONG_RESULT_ACCEPTED) / n, 2)).append(" |\n");
    }
    s.append('\n');
    return s.toString();
  }

  private static final List<Fault> ATTEMPT_CLASSES =
      List.of(Fault.V1, Fault.T1, Fault.T2, Fault.T3, Fault.T4, Fault.T5, Fault.T6, Fault.T7, Fault.T8);

  String duplicatePaths() {
    List<Map.Entry<String, Long>> paths = r.duplicateTrace().duplicatePaths();
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "### Decision paths of HFR's duplicate side effects (seed %d, %s tasks, traced)%n%n",
        r.plan().mainSeeds().get(0), Fmt.thousands(r.plan().mainTasks())));
    if (paths.isEmpty()) {
      s.append("No task of the traced run ended with a duplicate side effect.\n\n");
      return s.toString();
    }
    long total = paths.stream().mapToLong(Map.Entry::getValue).sum();
    s.append(String.format(Locale.ROOT, "%d tasks ended with a duplicate side effect. The engine's decisions on their write step, in "
        + "order (rung, what the attempt met, action/reason):%n%n", total));
    s.append("| tasks | write decisions |\n|---|---|\n");
    for (Map.Entry<String, Long> e : paths) {
      s.append("| ").append(e.getValue()).append(" | ").append(e.getKey()).append(" |\n");
    }
    s.append('\n');
    return s.toString();
  }

  String attempts() {
    StringBuilder s = new StringBuilder();
    s.append("### Attempts by fault class (§5.5 `harness_attempts_total{class}`; per task, all seeds pooled)\n\n");
    s.append("What each attempt met: an answer (accepted, or not verified), the verifier's rejection (V1), or an injected fault.\n\n");
    s.append("| strategy | all | answered |");
    ATTEMPT_CLASSES.forEach(f -> s.append(' ').append(f.name()).append(" |"));
    s.append("\n|---|---|---|");
    ATTEMPT_CLASSES.forEach(f -> s.append("---|"));
    s.append('\n');
    for (StrategyResult sr : r.main()) {
      double n = sr.pooled().tasks();
      Breakdown b = sr.breakdown();
      s.append("| ").append(sr.strategy().label()).append(" | ").append(Fmt.num(b.attempts() / n, 3))
          .append(" | ").append(Fmt.num(b.attemptsAnswered() / n, 3)).append(" |");
      for (Fault f : ATTEMPT_CLASSES) {
        s.append(' ').append(Fmt.num(b.attempts(f) / n, 3)).append(" |");
      }
      s.append('\n');
    }
    s.append('\n');
    return s.toString();
  }

  String degradationQuality() {
    StringBuilder s = new StringBuilder();
    s.append("### Degradation quality delta (§5.5 `harness_degradation_quality_delta`; all seeds pooled)\n\n");
    s.append("Of the step results each strategy accepted, the share that were in truth correct, from the primary and from each "
        + "rung; the delta is the rungs' (pooled) minus the primary's.\n\n");
    s.append("| strategy | results from rungs % | correct from primary % | correct from 1st rung % | correct from 2nd rung % | delta pp |\n");
    s.append("|---|---|---|---|---|---|\n");
    for (StrategyResult sr : r.main()) {
      Breakdown b = sr.breakdown();
      long all = b.accepted(0) + b.accepted(1) + b.accepted(2);
      long rungs = b.accepted(1) + b.accepted(2);
      if (all == 0) {
        continue;
      }
      double primary = share(b.correct(0), b.accepted(0));
      double rung = share(b.correct(1) + b.correct(2), rungs);
      s.append("| ").append(sr.strategy().label())
          .append(" | ").append(Fmt.num(share(rungs, all), 2))
          .append(" | ").append(Fmt.num(primary, 2))
          .append(" | ").append(b.accepted(1) == 0 ? "—" : Fmt.num(share(b.correct(1), b.accepted(1)), 2))
          .append(" | ").append(b.accepted(2) == 0 ? "—" : Fmt.num(share(b.correct(2), b.accepted(2)), 2))
          .append(" | ").append(rungs == 0 ? "—" : Fmt.signed(rung - primary, 2)).append(" |\n");
    }
    s.append('\n');
    return s.toString();
  }

  private static double share(long part, long whole) {
    return whole == 0 ? Double.NaN : 100.0 * part / whole;
  }

  String latency() {
    StringBuilder s = new StringBuilder();
    s.append("### Where the latency goes (all seeds pooled)\n\n");
    s.append("A task's latency split into time inside attempts, waiting between attempts (backoff and Retry-After) and waiting for "
        + "a human (Table B1's escalation latency); on average, and over the slowest 5 % (at or above the p95).\n\n");
    s.append("| strategy | mean (s) | in attempts | waiting | for a human | p95 (s) | slowest 5 %: mean | in attempts | waiting | for a human | escalated % |\n");
    s.append("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (StrategyResult sr : r.main()) {
      LatencySplit l = sr.latency();
      s.append("| ").append(sr.strategy().label())
          .append(" | ").append(Fmt.num(l.meanSeconds(), 2)).append(" | ").append(Fmt.num(l.attemptSeconds(), 2))
          .append(" | ").append(Fmt.num(l.waitSeconds(), 2)).append(" | ").append(Fmt.num(l.escalationSeconds(), 2))
          .append(" | ").append(Fmt.num(l.p95Seconds(), 2)).append(" | ").append(Fmt.num(l.tailSeconds(), 2))
          .append(" | ").append(Fmt.num(l.tailAttemptSeconds(), 2)).append(" | ").append(Fmt.num(l.tailWaitSeconds(), 2))
          .append(" | ").append(Fmt.num(l.tailEscalationSeconds(), 2)).append(" | ").append(Fmt.num(100 * l.tailEscalatedShare(), 1))
          .append(" |\n");
    }
    s.append('\n');
    StrategyResult hfr = r.result(Strategy.HFR);
    StrategyResult fixed = r.result(Strategy.FIXED_RETRY3);
    if (hfr != null && fixed != null) {
      LatencySplit h = hfr.latency();
      LatencySplit f = fixed.latency();
      s.append(String.format(Locale.ROOT,
          "HFR's p95 is %s s against FixedRetry3's %s s. Over their slowest 5 %%, HFR spends %s s in attempts, %s s waiting and %s s "
              + "for a human (%s %% of them escalated); FixedRetry3 spends %s s, %s s and %s s. So the difference in the tail is "
              + "%s s of attempts, %s s of waiting and %s s of escalation. HFR's p95 of non-escalated tasks is %s s (FixedRetry3's %s s; "
              + "the paper's %s s and %s s).%n%n",
          Fmt.num(h.p95Seconds(), 2), Fmt.num(f.p95Seconds(), 2), Fmt.num(h.tailAttemptSeconds(), 2), Fmt.num(h.tailWaitSeconds(), 2),
          Fmt.num(h.tailEscalationSeconds(), 2), Fmt.num(100 * h.tailEscalatedShare(), 1), Fmt.num(f.tailAttemptSeconds(), 2),
          Fmt.num(f.tailWaitSeconds(), 2), Fmt.num(f.tailEscalationSeconds(), 2),
          Fmt.signed(h.tailAttemptSeconds() - f.tailAttemptSeconds(), 2), Fmt.signed(h.tailWaitSeconds() - f.tailWaitSeconds(), 2),
          Fmt.signed(h.tailEscalationSeconds() - f.tailEscalationSeconds(), 2),
          Fmt.num(hfr.summary().get(Metric.P95_NON_ESCALATED).mean(), 2), Fmt.num(fixed.summary().get(Metric.P95_NON_ESCALATED).mean(), 2),
          Fmt.num(paper.cell("table13", Strategy.HFR, "p95NonEsc"), 2), Fmt.num(paper.cell("table13", Strategy.FIXED_RETRY3, "p95NonEsc"), 2)));
      double esc = 100 * hfr.pooled().esc();
      double paperEsc = paper.cell("table12", Strategy.HFR, "esc");
      if (esc > 5 && !Double.isNaN(paperEsc)) {
        s.append(String.format(Locale.ROOT, "With more than 5 %% of its tasks escalated (%s %%; the paper's HFR: %s %%), HFR's p95 is "
                + "the latency of an escalated task — %s s of waiting for a human plus the task's own time — so it moves with the "
                + "escalation rate: the deeper the 95th percentile reaches into the escalated tasks, the higher it is (ours %s s, the "
                + "paper's %s s).%n%n", Fmt.num(esc, 2), Fmt.num(paperEsc, 2), Fmt.num(params.escalationLatencySeconds(), 1),
            Fmt.num(h.p95Seconds(), 2), Fmt.num(paper.cell("table13", Strategy.HFR, "p95"), 2)));
      }
    }
    return s.toString();
  }

  String tableA() {
    if (r.noFaults().isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "### Table A — capability without faults (§6.6.6; p_fault 0, %d seeds × %s tasks)%n%n",
        r.plan().noFaultSeeds().size(), Fmt.thousands(r.plan().noFaultTasks())));
    s.append("Without injected faults only the models' and tools' own errors remain (Table B1 success rates) and the verifier's "
        + "false alarms. A strategy that lost capability here would be hurting the baseline.\n\n");
    s.append("| strategy | SR % | ESC % | false-accept % | mean cost | CPS | p50 (s) | p95 (s) | attempts/task |\n|---|---|---|---|---|---|---|---|---|\n");
    for (StrategyResult sr : r.noFaults()) {
      RunMetrics p = sr.pooled();
      s.append("| ").append(sr.strategy().label())
          .append(" | ").append(Fmt.pct(p.sr())).append(" | ").append(Fmt.pct(p.esc())).append(" | ").append(Fmt.pct(p.falseAcceptRate()))
          .append(" | ").append(Fmt.num(p.meanCost(), 3)).append(" | ").append(Fmt.num(p.cps(), 3))
          .append(" | ").append(Fmt.num(p.p50(), 2)).append(" | ").append(Fmt.num(p.p95(), 2))
          .append(" | ").append(Fmt.num(p.meanAttempts(), 2)).append(" |\n");
    }
    s.append('\n');
    StrategyResult hfr = null;
    StrategyResult best = null;
    for (StrategyResult sr : r.noFaults()) {
      if (sr.strategy() == Strategy.HFR) {
        hfr = sr;
      } else if (best == null || sr.pooled().sr() > best.pooled().sr()) {
        best = sr;
      }
    }
    if (hfr != null && best != null) {
      Map<String, Long> escalated = new java.util.LinkedHashMap<>();
      for (Breakdown.Count c : hfr.breakdown().endings()) {
        Breakdown.Ending e = c.ending();
        if (e.outcome() == Breakdown.Outcome.ESCALATED) {
          escalated.merge(e.step().toLowerCase(Locale.ROOT).replace('_', ' ') + " step, " + e.fault() + ", " + e.reason(), c.tasks(),
              Long::sum);
        }
      }
      s.append(String.format(Locale.ROOT, "Without faults HFR's SR is %s %% against %s's %s %% (the highest of the others): HFR "
              + "escalates %s %% of the tasks even here, mostly %s.%n%n",
          Fmt.pct(hfr.pooled().sr()), best.strategy().label(), Fmt.pct(best.pooled().sr()), Fmt.pct(hfr.pooled().esc()),
          top(escalated, hfr.pooled().tasks())));
    }
    return s.toString();
  }

  String retryAfter() {
    if (r.retryAfterWaits().isEmpty()) {
      return "";
    }
    StringBuilder s = new StringBuilder();
    s.append("### Retry-After (measured on the engine)\n\n");
    s.append(String.format(Locale.ROOT, "One read whose first attempt is a 429 asking `Retry-After: %d` and whose second answers; the "
        + "time each strategy waited before its second attempt (— : it made none):%n%n", params.retryAfterSeconds()));
    s.append("| strategy | wait (s) | honours Retry-After |\n|---|---|---|\n");
    for (Map.Entry<Strategy, Double> e : r.retryAfterWaits().entrySet()) {
      double w = e.getValue();
      s.append("| ").append(e.getKey().label()).append(" | ").append(w < 0 ? "—" : Fmt.num(w, 3)).append(" | ")
          .append(w < 0 ? "—" : w >= params.retryAfterSeconds() ? "yes" : "no").append(" |\n");
    }
    Double fixed = r.retryAfterWaits().get(Strategy.FIXED_RETRY3);
    if (fixed != null && fixed >= 0) {
      boolean honours = fixed >= params.retryAfterSeconds();
      s.append(String.format(Locale.ROOT, "%nFixedRetry3 %s: it waited %s s where the server asked for %d s%s.%n%n",
          honours ? "honours Retry-After" : "does not honour Retry-After", Fmt.num(fixed, 3), params.retryAfterSeconds(),
          honours ? "" : "; it does not classify failures, so it never reads the header, and every retry waits the method's base delay ("
              + Fmt.num(params.backoffBaseSeconds(), 2) + " s)"));
    } else {
      s.append('\n');
    }
    return s.toString();
  }
}
