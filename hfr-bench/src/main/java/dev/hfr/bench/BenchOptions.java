package dev.hfr.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line of {@link HfrBench}.
 *
 * @param quick the about-a-minute mode
 * @param synthetic run the synthetic part
 * @param live run the live part
 * @param seed the first seed
 * @param threads worker threads of the synthetic part
 * @param out where the JSON, Markdown and SVG go
 * @param docs where {@code HFR-BENCH.md} and its chart go as well (the committed docs), or null
 * @param progress whether to show the progress line
 * @param breaker run the breaker scenarios (with a full live part, or alone with {@code --breaker-only})
 */
public record BenchOptions(boolean quick, boolean synthetic, boolean live, long seed, int threads, Path out, Path docs, boolean progress,
    boolean breaker) {

  static final String USAGE = """
      usage: HfrBench [--quick] [--synthetic-only | --live-only] [--seed N] [--threads N] [--out DIR] [--docs DIR] [--no-progress]
        --quick           a run of about a minute with the full structure and smaller samples
        --synthetic-only  only the paper's simulation on the real engine
        --live-only       only the live fault-injection benchmark on loopback
        --breaker-only    only the breaker scenarios on loopback (with --docs: replaces their section)
        --seed N          first seed of the main comparison and the live fault schedule (default 1)
        --threads N       worker threads of the simulation (default: available processors)
        --out DIR         where results go (default hfr-bench/target/hfr-bench)
        --docs DIR        also write HFR-BENCH.md and its chart into DIR (e.g. docs)
        --no-progress     no progress line on stderr""";

  /** Parses {@code args}; a bad argument is an {@link IllegalArgumentException} saying which and why. */
  public static BenchOptions parse(String[] args, Path defaultOut) {
    boolean quick = false;
    boolean syntheticOnly = false;
    boolean liveOnly = false;
    boolean breakerOnly = false;
    long seed = 1;
    int threads = Math.max(1, Runtime.getRuntime().availableProcessors());
    Path out = defaultOut;
    Path docs = null;
    boolean progress = true;
    List<String> list = new ArrayList<>();
    for (String a : args) {
      // the Maven profile passes -Dbench without a value as "true"
      if (!a.isBlank() && !a.equals("true")) {
        list.add(a.trim());
      }
    }
    for (int i = 0; i < list.size(); i++) {
      String a = list.get(i);
      switch (a) {
        case "--quick" -> quick = true;
        case "--full" -> quick = false;
        case "--synthetic-only" -> syntheticOnly = true;
        case "--live-only" -> liveOnly = true;
        case "--breaker-only" -> breakerOnly = true;
        case "--no-progress" -> progress = false;
        case "--seed" -> seed = parseLong(a, value(list, ++i, a));
        case "--threads" -> threads = (int) parseLong(a, value(list, ++i, a));
        case "--out" -> out = Path.of(value(list, ++i, a));
        case "--docs" -> docs = Path.of(value(list, ++i, a));
        case "--help", "-h" -> throw new IllegalArgumentException(USAGE);
        default -> throw new IllegalArgumentException("unknown argument '" + a + "'\n" + USAGE);
      }
    }
    if ((syntheticOnly ? 1 : 0) + (liveOnly ? 1 : 0) + (breakerOnly ? 1 : 0) > 1) {
      throw new IllegalArgumentException("--synthetic-only, --live-only and --breaker-only exclude each other");
    }
    if (threads < 1) {
      throw new IllegalArgumentException("--threads must be at least 1, was " + threads);
    }
    if (breakerOnly) {
      return new BenchOptions(quick, false, false, seed, threads, out, docs, progress, true);
    }
    // The breaker scenarios take over a minute (a 30 s outage per strategy): full live runs only.
    return new BenchOptions(quick, !liveOnly, !syntheticOnly, seed, threads, out, docs, progress, !syntheticOnly && !quick);
  }

  /** The arguments that reproduce this run. */
  public String canonicalArgs() {
    StringBuilder s = new StringBuilder(quick ? "--quick" : "--full");
    if (breaker && !live && !synthetic) {
      return s.append(" --breaker-only --seed ").append(seed).toString();
    }
    if (!live) {
      s.append(" --synthetic-only");
    }
    if (!synthetic) {
      s.append(" --live-only");
    }
    s.append(" --seed ").append(seed);
    return s.toString();
  }

  private static String value(List<String> list, int i, String option) {
    if (i >= list.size()) {
      throw new IllegalArgumentException(option + " needs a value");
    }
    return list.get(i);
  }

  private static long parseLong(String option, String v) {
    try {
      return Long.parseLong(v);
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(option + " needs a whole number, got '" + v + "'");
    }
  }
}
