package dev.hfr.bench.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The paper's figure A (§6.6.6): cost and tail latency against safe completion, one point per strategy,
 * with the Pareto front (no other strategy has both a higher SCR and a lower cost, or latency) drawn
 * through the points that are on it. Written as plain SVG.
 */
public final class ParetoChart {

  /** One strategy's position: SCR in percent, mean cost per task, p95 latency in seconds. */
  public record Point(String label, double scrPercent, double meanCost, double p95Seconds) {}

  private static final int PANEL_W = 460;
  private static final int PANEL_H = 360;
  private static final int MARGIN_L = 60;
  private static final int MARGIN_B = 50;
  private static final int MARGIN_T = 40;
  private static final int MARGIN_R = 20;
  private static final String[] COLOURS = {
      "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

  private ParetoChart() {}

  /** The two-panel chart as an SVG document. */
  public static String svg(String title, List<Point> points) {
    StringBuilder s = new StringBuilder();
    int width = 2 * (MARGIN_L + PANEL_W + MARGIN_R);
    int height = MARGIN_T + PANEL_H + MARGIN_B + 20 + 18 * ((points.size() + 2) / 3);
    s.append(String.format(Locale.ROOT,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
        width, height, width, height));
    s.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"15\" text-anchor=\"middle\">%s</text>%n", width / 2, escape(title)));
    panel(s, 0, points, "mean cost per task", true);
    panel(s, MARGIN_L + PANEL_W + MARGIN_R, points, "p95 latency (s)", false);
    int legendY = MARGIN_T + PANEL_H + MARGIN_B + 10;
    for (int i = 0; i < points.size(); i++) {
      int x = MARGIN_L + (i % 3) * 300;
      int y = legendY + (i / 3) * 18;
      s.append(String.format(Locale.ROOT, "<circle cx=\"%d\" cy=\"%d\" r=\"5\" fill=\"%s\"/>", x, y - 4, COLOURS[i % COLOURS.length]));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", x + 10, y, escape(points.get(i).label())));
    }
    s.append("</svg>\n");
    return s.toString();
  }

  private static void panel(StringBuilder s, int x0, List<Point> points, String yLabel, boolean cost) {
    double[] xs = points.stream().mapToDouble(Point::scrPercent).toArray();
    double[] ys = points.stream().mapToDouble(p -> cost ? p.meanCost() : p.p95Seconds()).toArray();
    double[] xr = niceRange(min(xs), max(xs));
    double[] yr = niceRange(Math.min(0, min(ys)), max(ys));
    int left = x0 + MARGIN_L;
    int top = MARGIN_T;
    s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#444\"/>%n", left, top, PANEL_W, PANEL_H));
    for (int i = 0; i <= 5; i++) {
      double xv = xr[0] + i * (xr[1] - xr[0]) / 5;
      double yv = yr[0] + i * (yr[1] - yr[0]) / 5;
      double px = left + i * PANEL_W / 5.0;
      double py = top + PANEL_H - i * PANEL_H / 5.0;
      s.append(String.format(Locale.ROOT, "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#ddd\"/>", px, top, px, top + PANEL_H));
      s.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>", left, py, left + PANEL_W, py));
      s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>", px, top + PANEL_H + 16, tick(xv)));
      s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", left - 6, py + 4, tick(yv)));
    }
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">safe completion rate SCR (%%)</text>%n",
        left + PANEL_W / 2, top + PANEL_H + 36));
    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" transform=\"rotate(-90 %d %d)\">%s</text>%n",
        x0 + 16, top + PANEL_H / 2, x0 + 16, top + PANEL_H / 2, escape(yLabel)));
    // Pareto front: sorted by SCR descending, keep points whose y is below every point with a higher SCR
    List<Integer> order = new ArrayList<>();
    for (int i = 0; i < points.size(); i++) {
      order.add(i);
    }
    order.sort(Comparator.<Integer>comparingDouble(i -> -xs[i]).thenComparingDouble(i -> ys[i]));
    StringBuilder front = new StringBuilder();
    double best = Double.POSITIVE_INFINITY;
    for (int i : order) {
      if (ys[i] < best) {
        best = ys[i];
        front.append(String.format(Locale.ROOT, "%.1f,%.1f ", sx(xs[i], xr, left), sy(ys[i], yr, top)));
      }
    }
    s.append("<polyline points=\"").append(front.toString().trim())
        .append("\" fill=\"none\" stroke=\"#999\" stroke-dasharray=\"5,4\" stroke-width=\"1.5\"/>\n");
    for (int i = 0; i < points.size(); i++) {
      double px = sx(xs[i], xr, left);
      double py = sy(ys[i], yr, top);
      s.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"5\" fill=\"%s\"><title>%s: SCR %.2f %%, %s %.3f</title></circle>%n",
          px, py, COLOURS[i % COLOURS.length], escape(points.get(i).label()), xs[i], escape(yLabel), ys[i]));
    }
  }

  private static double sx(double v, double[] r, int left) {
    return left + (v - r[0]) / (r[1] - r[0]) * PANEL_W;
  }

  private static double sy(double v, double[] r, int top) {
    return top + PANEL_H - (v - r[0]) / (r[1] - r[0]) * PANEL_H;
  }

  /** A range around [lo, hi] with round ends, never empty. */
  static double[] niceRange(double lo, double hi) {
    if (hi - lo < 1e-9) {
      hi = lo + 1;
    }
    double span = hi - lo;
    double step = Math.pow(10, Math.floor(Math.log10(span / 5)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (span / (step * m) <= 5) {
        step *= m;
        break;
      }
    }
    double a = Math.floor(lo / step) * step;
    double b = Math.ceil(hi / step) * step;
    while ((b - a) / step < 5) {
      b += step;
    }
    while ((b - a) / step > 5) {
      step = (b - a) / 5;
    }
    return new double[] {a, b};
  }

  private static String tick(double v) {
    return Math.abs(v - Math.rint(v)) < 1e-9 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.2f", v);
  }

  private static double min(double[] v) {
    double m = Double.POSITIVE_INFINITY;
    for (double d : v) {
      m = Math.min(m, d);
    }
    return m;
  }

  private static double max(double[] v) {
    double m = Double.NEGATIVE_INFINITY;
    for (double d : v) {
      m = Math.max(m, d);
    }
    return m;
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
