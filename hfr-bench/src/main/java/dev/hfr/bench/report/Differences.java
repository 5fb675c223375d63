package dev.hfr.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The sentence under each table that says where our figures differ from the paper's — generated from the
 * figures, never typed: the largest gap, how many strategies lie within a tolerance, the ordering check
 * over every pair (ties reported as ties), and the figures behind the largest gap (attempts, degradation,
 * escalation) that differ from the paper's too. Why they differ is the business of the breakdown tables.
 */
final class Differences {

  /** One compared value: a name, ours, the paper's, and optional explaining figures (ours vs paper). */
  record Row(String name, double ours, double paper, List<Mechanism> mechanisms) {}

  /** A figure that explains a difference, e.g. attempts per task, ours against the paper's. */
  record Mechanism(String what, double ours, double paper, String unit) {}

  private Differences() {}

  /**
   * Every pair of rows compared, the paper's order against ours: a pair whose two figures lie within the
   * tolerance is a tie (on either side), and ties are reported as ties, not skipped.
   */
  record Ordering(int pairs, int sameOrder, int bothTied, List<String> tiedOnlyByPaper, List<String> tiedOnlyByUs,
      List<String> reversed) {

    String sentence(double tolerance, String unit) {
      StringBuilder s = new StringBuilder();
      s.append(String.format(Locale.ROOT, "Of all %d pairs (a pair within %s %s is a tie): %d ordered the same way, %d tied in both",
          pairs, Fmt.num(tolerance, 1), unit, sameOrder, bothTied));
      s.append(String.format(Locale.ROOT, ", %d tied by the paper but ordered by us%s", tiedOnlyByPaper.size(), list(tiedOnlyByPaper)));
      s.append(String.format(Locale.ROOT, ", %d ordered by the paper but tied by us%s", tiedOnlyByUs.size(), list(tiedOnlyByUs)));
      s.append(String.format(Locale.ROOT, ", %d in the opposite order%s.", reversed.size(), list(reversed)));
      return s.toString();
    }

    private static String list(List<String> pairs) {
      if (pairs.isEmpty()) {
        return "";
      }
      int shown = Math.min(6, pairs.size());
      return " (" + String.join("; ", pairs.subList(0, shown)) + (pairs.size() > shown ? "; …" : "") + ")";
    }
  }

  /** The ordering check over every pair of {@code rows}. */
  static Ordering ordering(List<Row> rows, double tolerance) {
    int pairs = 0;
    int same = 0;
    int bothTied = 0;
    List<String> paperTie = new ArrayList<>();
    List<String> ourTie = new ArrayList<>();
    List<String> reversed = new ArrayList<>();
    for (int i = 0; i < rows.size(); i++) {
      for (int j = i + 1; j < rows.size(); j++) {
        Row a = rows.get(i);
        Row b = rows.get(j);
        double po = a.paper() - b.paper();
        double oo = a.ours() - b.ours();
        boolean paperTied = Math.abs(po) <= tolerance;
        boolean ourTied = Math.abs(oo) <= tolerance;
        pairs++;
        String pair = String.format(Locale.ROOT, "%s vs %s: paper %s, ours %s", a.name(), b.name(), Fmt.signed(po, 2), Fmt.signed(oo, 2));
        if (paperTied && ourTied) {
          bothTied++;
        } else if (paperTied) {
          paperTie.add(pair);
        } else if (ourTied) {
          ourTie.add(pair);
        } else if (Math.signum(po) == Math.signum(oo)) {
          same++;
        } else {
          reversed.add(pair);
        }
      }
    }
    return new Ordering(pairs, same, bothTied, paperTie, ourTie, reversed);
  }

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
    Ordering ordering = ordering(both, tolerance);
    StringBuilder s = new StringBuilder();
    s.append(String.format(Locale.ROOT, "%d of %d %s figures are within %s %s of the paper's", within, both.size(), metric,
        Fmt.num(tolerance, 1), unit));
    s.append(ordering.pairs() > 0 ? ". " + ordering.sentence(tolerance, unit) : ".");
    double gap = worst.ours() - worst.paper();
    s.append(String.format(Locale.ROOT, " The largest gap is %s: %s against the paper's %s (%s %s)", worst.name(),
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
      s.append("; the figures behind it differ too: ").append(String.join(", ", why)).append('.');
    } else {
      s.append('.');
    }
    return s.toString();
  }
}
