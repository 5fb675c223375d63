package dev.hfr.bench;

import dev.hfr.bench.live.BreakerResults;
import dev.hfr.bench.live.BreakerScenarios;
import dev.hfr.bench.live.LiveBenchmark;
import dev.hfr.bench.live.LivePlan;
import dev.hfr.bench.live.LiveResults;
import dev.hfr.bench.report.BenchReport;
import dev.hfr.bench.report.RunInfo;
import dev.hfr.bench.sim.EngineRunner;
import dev.hfr.bench.sim.SyntheticBenchmark;
import dev.hfr.bench.sim.SyntheticPlan;
import dev.hfr.bench.workload.WorkloadParameters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;

/**
 * HFR-Bench's command line: runs the synthetic part (the paper's simulation on the real engine) and the
 * live part (real services on loopback with Table 16 faults), and writes JSON, Markdown and the Pareto
 * chart. See {@link BenchOptions#USAGE}.
 */
public final class HfrBench {

  private HfrBench() {}

  public static void main(String[] args) throws Exception {
    BenchOptions options;
    try {
      options = BenchOptions.parse(args, defaultOut());
    } catch (IllegalArgumentException e) {
      System.err.println(e.getMessage());
      throw e;
    }
    BenchReport report = run(options);
    System.out.print(report.consoleSummary());
  }

  /** Runs what {@code options} ask for and writes the reports. */
  public static BenchReport run(BenchOptions options) throws Exception {
    WorkloadParameters params = WorkloadParameters.standard();
    SyntheticBenchmark.Outcome synthetic = null;
    LiveResults live = null;
    BreakerResults breaker = null;
    try (Progress progress = new Progress(System.err, options.progress())) {
      if (options.synthetic()) {
        SyntheticPlan plan = options.quick() ? SyntheticPlan.quick(options.seed()) : SyntheticPlan.full(options.seed());
        synthetic = new SyntheticBenchmark(params, new EngineRunner(), options.threads(), progress).run(plan);
      }
      if (options.live()) {
        LivePlan plan = options.quick() ? LivePlan.quick(options.seed()) : LivePlan.standard(options.seed());
        live = new LiveBenchmark(plan, progress).run();
      }
      if (options.breaker()) {
        breaker = new BreakerScenarios(options.seed(), progress).run();
      }
    }
    RunInfo info = new RunInfo(command(options), options.seed(), options.quick() ? "quick" : "full",
        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString(),
        "Java " + Runtime.version() + ", " + Runtime.getRuntime().availableProcessors() + " processors");
    BenchReport report = new BenchReport(info, synthetic == null ? null : synthetic.results(),
        synthetic == null ? null : synthetic.timing(), live, breaker, params);
    Path md = report.writeTo(options.out());
    System.err.println("reports written to " + md.getParent().toAbsolutePath());
    if (options.docs() != null) {
      System.err.println("docs written to " + report.writeDocs(options.docs()).toAbsolutePath());
    }
    return report;
  }

  /** The one command that reproduces a run from a clean checkout. */
  static String command(BenchOptions o) {
    return "mvn -q -pl hfr-bench -am package -DskipTests -Dbench=\"" + o.canonicalArgs()
        + (o.docs() != null ? " --docs " + o.docs() : "") + "\"";
  }

  private static Path defaultOut() {
    String configured = System.getProperty("hfr.bench.out");
    if (configured != null && !configured.isBlank()) {
      return Path.of(configured);
    }
    return Files.isDirectory(Path.of("hfr-bench")) ? Path.of("hfr-bench", "target", "hfr-bench") : Path.of("target", "hfr-bench");
  }
}
