package dev.hfr.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sentence under each table that says where our figures differ from the paper's and why — generated
 * from the figures, never typed: the largest gap, how many strategies lie within a tolerance, whether
 * the ordering of strategies agrees, and the mechanism figures (attempts, degradation, escalation) that
 * explain the largest gap.
 */
final class Differences {

  /** One compared value: a name, ours, the paper's, and optional explaining figures (ours vs paper). */
  record Row(String name, double ours, double paper, List<Mechanism> mechanisms) {}

  /** A figure that explains a difference, e.g. attempts per task, ours against the paper's. */
  record Mechanism(String what, double ours, double paper, String unit) {}

  private Differences() {}

  /**
   * The sentence for a table whose main figure is {@code metric} (in {@code unit}, e.g. "pp" for
   * percentages), treating gaps up to {@code tolerance} as agreement.
   */
  static String sentence(String metric, String unit, double tolerance, List<Row> rows) {
    List<Row> both = new ArrayList<>();
    for (Row r : rows) {
      if (!Double.isNaN(r.paper()) && !Double.isNaN(r.ours()) && !Double.isInfinite(r.ours())) {
        both.add(r);
      }
    }
    if (both.isEmpty()) {
      return "The paper has no figures to compare with here.";
    }
    Row worst = both.get(0);
    int within = 0;
    for (Row r : both) {
      if (Math.abs(r.ours() - r.paper()) > Math.abs(worst.ours() - worst.paper())) {
        worst = r;
      }
      if (Math.abs(r.ours() - r.paper()) <= tolerance) {
        within++;
      }
    }
    int pairs = 0;
    int concordant = 0;
    for (int i = 0; i < both.size(); i++) {
      for (int j = i + 1; j < both.size(); j++) {
        double po = both.get(i).paper() - both.get(j).paper();
        double oo = both.get(i).ours() - both.get(j).ours();
        if (Math.abs(po) <= tolerance) {
          continue; // the paper does not order these two
        }
        pairs++;
        if (Math.signum(po) == Math.signum(oo)) {
          concordant++;
        }
      }
    }
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "%d of %d %s figures are within %s %s of the paper's", within, both.size(), metric,
        Fmt.num(tolerance, 1), unit));
    if (pairs > 0) {
      s.append(String.format(Locale.ROOT, ", and %d of the %d pairs the paper orders are ordered the same way", concordant, pairs));
    }
    double gap = worst.ours() - worst.paper();
    s.append(String.format(Locale.ROOT, ". The largest gap is %s: %s against the paper's %s (%s %s)", worst.name(),
        Fmt.num(worst.ours(), 2), Fmt.num(worst.paper(), 2), Fmt.signed(gap, 2), unit));
    List<String> why = new ArrayList<>();
    for (Mechanism m : worst.mechanisms()) {
      if (!Double.isNaN(m.paper()) && Math.abs(m.ours() - m.paper()) > 0.05 * Math.max(Math.abs(m.paper()), 0.01)) {
        why.add(String.format(Locale.ROOT, "%s %s%s against %s%s", m.what(), Fmt.num(m.ours(), 2), m.unit(),
            Fmt.num(m.paper(), 2), m.unit()));
      }
    }
    if (Math.abs(gap) <= tolerance) {
      s.append(" — within tolerance.");
    } else if (!why.isEmpty()) {
      s.append("; there our engine's path differs: ").append(String.join(", ", why))
          .append(". The strategies here are the real runtime's decisions (its action table, budgets, breakers and verifier), "
              + "and the fault-class mix and latencies of failures are our assumptions (workload-assumptions.json), "
              + "where the paper's figures come from its own Python model.");
    } else {
      s.append("; the attempts, degradation and escalation behind it are close to the paper's, so the gap comes from "
          + "what a step's success depends on — our fault-class mix and failure latencies (workload-assumptions.json) "
          + "and the real runtime's acceptance of degraded results.");
    }
    return s.toString();
  }
}
