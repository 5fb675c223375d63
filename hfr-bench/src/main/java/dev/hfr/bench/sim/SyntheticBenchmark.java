package dev.hfr.bench.sim;

import dev.hfr.bench.Progress;
import dev.hfr.bench.metrics.Breakdown;
import dev.hfr.bench.metrics.Metric;
import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.metrics.TaskTable;
import dev.hfr.bench.stats.MeanSd;
import dev.hfr.bench.stats.PairedBootstrap;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.workload.WorkloadParameters;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs a {@link SyntheticPlan}: every (strategy, seed, point) is an independent unit of work with its own
 * engine and virtual clock; units run on a fixed pool of threads and their results are collected by
 * their coordinates, never by completion order — so the results do not depend on the thread count.
 */
public final class SyntheticBenchmark {

  /** Seed of the bootstrap resampling; fixed so that the intervals are reproducible too. */
  private static final long BOOTSTRAP_SEED = 20261019L;

  private final WorkloadParameters base;
  private final StrategyRunner runner;
  private final int threads;
  private final Progress progress;

  public SyntheticBenchmark(WorkloadParameters base, StrategyRunner runner, int threads, Progress progress) {
    if (threads < 1) {
      throw new IllegalArgumentException("threads must be at least 1, was " + threads);
    }
    this.base = base;
    this.runner = runner;
    this.threads = threads;
    this.progress = progress;
  }

  /** The results of a run and how long it took. */
  public record Outcome(SyntheticResults results, RunTiming timing, Map<Strategy, TaskTable> pooledMain) {}

  public Outcome run(SyntheticPlan plan) {
    ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
      Thread t = new Thread(r, "hfr-bench-sim");
      t.setDaemon(true);
      return t;
    });
    try {
      long t0 = System.nanoTime();
      double loadBefore = MachineLoad.loadAverage();
      double cpu0 = MachineLoad.processCpuSeconds();
      long mainTasks = (long) plan.mainSeeds().size() * plan.mainTasks() * plan.mainStrategies().size();
      progress.start("synthetic: main", mainTasks);
      Map<Strategy, TaskTable> pooled = new EnumMap<>(Strategy.class);
      List<SyntheticResults.StrategyResult> main = compare(pool, base, plan.mainSeeds(), plan.mainTasks(), plan.mainStrategies(), pooled);
      double mainSeconds = (System.nanoTime() - t0) / 1e9;
      double cpu1 = MachineLoad.processCpuSeconds();
      double mainCpuSeconds = cpu0 < 0 || cpu1 < 0 ? -1 : cpu1 - cpu0;
      double loadAfter = MachineLoad.loadAverage();
      progress.done();

      List<SyntheticResults.VariantResult> variants = new ArrayList<>();
      for (AssumptionVariant v : plan.variants()) {
        progress.start("synthetic: " + v.name(), (long) v.seeds().size() * v.tasks() * v.strategies().size());
        variants.add(new SyntheticResults.VariantResult(v.name(), v.seeds(),
            compare(pool, v.change().apply(base), v.seeds(), v.tasks(), v.strategies(), null)));
        progress.done();
      }

      progress.start("synthetic: Table A (no faults)", (long) plan.noFaultSeeds().size() * plan.noFaultTasks() * plan.mainStrategies().size());
      List<SyntheticResults.StrategyResult> noFaults =
          compare(pool, base.withFaultRate(0), plan.noFaultSeeds(), plan.noFaultTasks(), plan.mainStrategies(), null);
      progress.done();

      long sweepTasks = (long) plan.sweepRates().size() * plan.sweepTasks() * plan.sweepStrategies().size();
      progress.start("synthetic: fault-rate sweep", sweepTasks);
      Map<Double, Map<Strategy, Future<TaskTable>>> sweepRuns = new LinkedHashMap<>();
      for (double rate : plan.sweepRates()) {
        WorkloadParameters p = base.withFaultRate(rate);
        Map<Strategy, Future<TaskTable>> point = new EnumMap<>(Strategy.class);
        for (Strategy s : plan.sweepStrategies()) {
          point.put(s, pool.submit(unit(s, p, plan.sweepSeed(), plan.sweepTasks())));
        }
        sweepRuns.put(rate, point);
      }
      List<SyntheticResults.SweepPoint> sweep = new ArrayList<>();
      for (Map.Entry<Double, Map<Strategy, Future<TaskTable>>> e : sweepRuns.entrySet()) {
        Map<Strategy, RunMetrics> metrics = new EnumMap<>(Strategy.class);
        for (Map.Entry<Strategy, Future<TaskTable>> r : e.getValue().entrySet()) {
          metrics.put(r.getKey(), RunMetrics.of(get(r.getValue())));
        }
        sweep.add(new SyntheticResults.SweepPoint(e.getKey(), metrics));
      }
      progress.done();

      long incidentTasks = (long) plan.incidentRates().size() * plan.incidentSeeds().size() * plan.incidentTasks()
          * plan.incidentStrategies().size();
      progress.start("synthetic: incident sweep", incidentTasks);
      Map<Double, Map<Strategy, List<Future<TaskTable>>>> incidentRuns = new LinkedHashMap<>();
      for (double rate : plan.incidentRates()) {
        WorkloadParameters p = base.withFaultRate(plan.incidentFaultRate()).withIncidents(rate, rate * plan.toolIncidentFactor());
        Map<Strategy, List<Future<TaskTable>>> point = new EnumMap<>(Strategy.class);
        for (long seed : plan.incidentSeeds()) {
          for (Strategy s : plan.incidentStrategies()) {
            point.computeIfAbsent(s, k -> new ArrayList<>()).add(pool.submit(unit(s, p, seed, plan.incidentTasks())));
          }
        }
        incidentRuns.put(rate, point);
      }
      List<SyntheticResults.IncidentPoint> incidents = new ArrayList<>();
      for (Map.Entry<Double, Map<Strategy, List<Future<TaskTable>>>> e : incidentRuns.entrySet()) {
        Map<Strategy, Map<Metric, MeanSd>> summary = new EnumMap<>(Strategy.class);
        for (Map.Entry<Strategy, List<Future<TaskTable>>> r : e.getValue().entrySet()) {
          List<RunMetrics> perSeed = new ArrayList<>();
          for (Future<TaskTable> f : r.getValue()) {
            perSeed.add(RunMetrics.of(get(f)));
          }
          summary.put(r.getKey(), summarise(perSeed));
        }
        incidents.add(new SyntheticResults.IncidentPoint(e.getKey(), e.getKey() * plan.toolIncidentFactor(), summary));
      }
      progress.done();

      progress.start("statistics: paired bootstrap", plan.mainStrategies().size() - 1L);
      PairedBootstrap bootstrap = new PairedBootstrap(plan.bootstrapResamples(), BOOTSTRAP_SEED);
      Map<Strategy, Future<PairedComparison>> comparisonRuns = new EnumMap<>(Strategy.class);
      TaskTable hfr = pooled.get(Strategy.HFR);
      for (Strategy s : plan.mainStrategies()) {
        if (s != Strategy.HFR) {
          TaskTable other = pooled.get(s);
          comparisonRuns.put(s, pool.submit(() -> {
            PairedComparison c = bootstrap.compare(Strategy.HFR.label(), hfr, s.label(), other);
            progress.advance(1);
            return c;
          }));
        }
      }
      List<PairedComparison> comparisons = new ArrayList<>();
      for (Future<PairedComparison> f : comparisonRuns.values()) {
        comparisons.add(get(f));
      }
      progress.done();

      double totalSeconds = (System.nanoTime() - t0) / 1e9;
      Map<Strategy, Double> retryAfterWaits = new EnumMap<>(Strategy.class);
      for (Strategy st : plan.mainStrategies()) {
        retryAfterWaits.put(st, RetryAfterProbe.waitSeconds(st, base));
      }
      progress.start("synthetic: HFR with its write decisions traced", plan.mainTasks());
      Breakdown duplicateTrace = runner.tracingDuplicates()
          .run(Strategy.HFR, base, plan.mainSeeds().get(0), plan.mainTasks(), progress::advance).breakdown();
      progress.done();
      SyntheticResults results = new SyntheticResults(plan, main, comparisons, sweep, incidents, variants, noFaults, duplicateTrace,
          retryAfterWaits);
      double cpu2 = MachineLoad.processCpuSeconds();
      return new Outcome(results, new RunTiming(threads, mainTasks, mainSeconds, mainCpuSeconds, loadBefore, loadAfter,
          plan.totalTasks(), totalSeconds, cpu0 < 0 || cpu2 < 0 ? -1 : cpu2 - cpu0, MachineLoad.loadAverage()), pooled);
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Runs {@code strategies} on {@code seeds} x {@code tasks} of {@code params}; each strategy's per-seed
   * metrics, their summary, and the pooled metrics, breakdown and latency split. The pooled tables go into
   * {@code pooledOut} when it is not null (the paired comparisons need them).
   */
  private List<SyntheticResults.StrategyResult> compare(ExecutorService pool, WorkloadParameters params, List<Long> seeds, int tasks,
      List<Strategy> strategies, Map<Strategy, TaskTable> pooledOut) {
    Map<Strategy, List<Future<TaskTable>>> runs = new EnumMap<>(Strategy.class);
    for (long seed : seeds) {
      for (Strategy s : strategies) {
        runs.computeIfAbsent(s, k -> new ArrayList<>()).add(pool.submit(unit(s, params, seed, tasks)));
      }
    }
    List<SyntheticResults.StrategyResult> out = new ArrayList<>();
    for (Strategy s : strategies) {
      List<RunMetrics> perSeed = new ArrayList<>();
      TaskTable all = new TaskTable(tasks * seeds.size());
      for (Future<TaskTable> f : runs.get(s)) {
        TaskTable t = get(f);
        perSeed.add(RunMetrics.of(t));
        all.addAll(t);
      }
      if (pooledOut != null) {
        pooledOut.put(s, all);
      }
      out.add(new SyntheticResults.StrategyResult(s, perSeed, summarise(perSeed), RunMetrics.of(all), all.breakdown(),
          LatencySplit.of(all)));
    }
    return out;
  }

  private Callable<TaskTable> unit(Strategy strategy, WorkloadParameters params, long seed, int tasks) {
    return () -> runner.run(strategy, params, seed, tasks, progress::advance);
  }

  /** Mean and sd across seeds of every metric. */
  static Map<Metric, MeanSd> summarise(List<RunMetrics> perSeed) {
    Map<Metric, MeanSd> summary = new EnumMap<>(Metric.class);
    for (Metric m : Metric.values()) {
      double[] v = new double[perSeed.size()];
      for (int i = 0; i < v.length; i++) {
        v[i] = m.of(perSeed.get(i));
      }
      summary.put(m, MeanSd.of(v));
    }
    return summary;
  }

  private static <T> T get(Future<T> f) {
    try {
      return f.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for a simulation unit", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException re) {
        throw re;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException("a simulation unit failed", cause);
    }
  }
}
