package dev.hfr.bench.report;

import dev.hfr.bench.stats.Estimate;
import dev.hfr.bench.stats.MeanSd;
import java.util.Locale;

/** Number formatting of the reports: one locale, one style everywhere. */
final class Fmt {

  private Fmt() {}

  static String num(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    if (Double.isInfinite(v)) {
      return "∞";
    }
    return String.format(Locale.ROOT, "%." + decimals + "f", v);
  }

  /** A fraction as a percentage, without the sign. */
  static String pct(double fraction) {
    return num(100 * fraction, 2);
  }

  /** A signed number. */
  static String signed(double v, int decimals) {
    if (Double.isNaN(v)) {
      return "n/a";
    }
    String s = num(v, decimals);
    return v > 0 || (v == 0 && !s.startsWith("-")) ? "+" + s : s;
  }

  /** Mean ± sd of a fraction, in percent. */
  static String pct(MeanSd m) {
    return num(100 * m.mean(), 2) + " ± " + num(100 * m.sd(), 2);
  }

  /** Mean ± sd. */
  static String meanSd(MeanSd m, int decimals) {
    return num(m.mean(), decimals) + " ± " + num(m.sd(), decimals);
  }

  /** An estimate with its interval: {@code +1.23 [0.90, 1.55]}. */
  static String ci(Estimate e, int decimals) {
    return signed(e.point(), decimals) + " [" + num(e.low(), decimals) + ", " + num(e.high(), decimals) + "]";
  }

  static String thousands(long v) {
    return String.format(Locale.ROOT, "%,d", v);
  }
}
