package dev.hfr.bench.live;

import dev.hfr.bench.Progress;
import dev.hfr.bench.live.service.FaultPlan;
import dev.hfr.bench.live.service.LiveServices;
import dev.hfr.bench.live.tools.EmailTools_Recovering;
import dev.hfr.bench.live.tools.ModelTools_Recovering;
import dev.hfr.bench.live.tools.OrderTools_Recovering;
import dev.hfr.bench.live.tools.PaymentTools_Recovering;
import dev.hfr.bench.live.tools.SearchTools_Recovering;
import dev.hfr.bench.live.tools.ToolHttp;
import dev.hfr.bench.live.tools.VerifierNoise;
import dev.hfr.bench.metrics.RunMetrics;
import dev.hfr.bench.metrics.TaskResult;
import dev.hfr.bench.metrics.TaskTable;
import dev.hfr.bench.stats.PairedBootstrap;
import dev.hfr.bench.stats.PairedComparison;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.strategy.StrategyConfigurations;
import dev.hfr.bench.workload.Draws;
import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The live benchmark: for every scenario and strategy, fresh services on loopback with the scenario's
 * fault schedule, a fresh engine configured for the strategy on the system clock, and the generated
 * proxies of the annotated tools; tasks run {@code concurrency} at a time. After the cell, the services'
 * own records decide what happened: whether each task's accepted answers were right, how many effects
 * each write committed, and what was billed.
 */
public final class LiveBenchmark {

  private static final long BOOTSTRAP_SEED = 20261019L;
  /** A held response is released this long after the client gave up. */
  private static final long HOLD_BEYOND_TIMEOUT_MILLIS = 300;
  private static final int BURST_WINDOW_TASKS = 8;

  private final LivePlan plan;
  private final Progress progress;

  public LiveBenchmark(LivePlan plan, Progress progress) {
    this.plan = plan;
    this.progress = progress;
  }

  public LiveResults run() throws IOException, InterruptedException {
    warmUp();
    long t0 = System.nanoTime();
    List<LiveResults.Cell> cells = new ArrayList<>();
    List<LiveResults.Summary> summaries = new ArrayList<>();
    List<LiveResults.ScenarioComparison> comparisons = new ArrayList<>();
    progress.start("live: tasks", (long) plan.scenarios().size() * plan.seeds() * plan.strategies().size() * plan.tasksPerCell());
    for (int si = 0; si < plan.scenarios().size(); si++) {
      LiveScenario scenario = plan.scenarios().get(si);
      Map<Strategy, TaskTable> pooled = new EnumMap<>(Strategy.class);
      Map<Strategy, List<LiveResults.Cell>> byStrategy = new EnumMap<>(Strategy.class);
      for (long seed : plan.scheduleSeeds()) {
        long scheduleSeed = Draws.derive(seed, si);
        for (Strategy strategy : plan.strategies()) {
          long c0 = System.nanoTime();
          CellRun run = runCell(scheduleSeed, scenario, strategy);
          pooled.computeIfAbsent(strategy, k -> new TaskTable(plan.tasksPerCell() * plan.seeds())).addAll(run.table());
          LiveResults.Cell cell = new LiveResults.Cell(scenario.name(), seed, strategy, RunMetrics.of(run.table()), run.requests(),
              run.duplicates(), run.breakerStops(), (System.nanoTime() - c0) / 1e9);
          cells.add(cell);
          byStrategy.computeIfAbsent(strategy, k -> new ArrayList<>()).add(cell);
        }
      }
      for (Strategy strategy : plan.strategies()) {
        summaries.add(LiveSummaries.of(scenario.name(), strategy, byStrategy.get(strategy), RunMetrics.of(pooled.get(strategy))));
      }
      PairedBootstrap bootstrap = new PairedBootstrap(plan.bootstrapResamples(), BOOTSTRAP_SEED);
      List<PairedComparison> cs = new ArrayList<>();
      for (Strategy s : plan.strategies()) {
        if (s != Strategy.HFR) {
          cs.add(bootstrap.compare(Strategy.HFR.label(), pooled.get(Strategy.HFR), s.label(), pooled.get(s)));
        }
      }
      comparisons.add(new LiveResults.ScenarioComparison(scenario.name(), cs));
    }
    progress.done();
    VerifierNoise.use(VerifierNoise.PERFECT);
    return new LiveResults(plan, cells, summaries, comparisons, (System.nanoTime() - t0) / 1e9);
  }

  /**
   * One unmeasured cell without faults first: class loading, the JIT and the first connections would
   * otherwise turn the first measured cell's calls into timeouts.
   */
  private void warmUp() throws IOException, InterruptedException {
    LiveScenario noFaults = new LiveScenario("warm-up", 0, 0);
    LivePlan warmPlan = new LivePlan(plan.seed(), 1, List.of(noFaults), List.of(Strategy.HFR), plan.concurrency(), plan.concurrency(),
        plan.clientTimeoutMillis(), plan.bootstrapResamples(), plan.escalationSeconds(), plan.escalationCost(), plan.verifierNoise());
    try (Progress silent = Progress.silent()) {
      new LiveBenchmark(warmPlan, silent).runCell(0, noFaults, Strategy.HFR);
    }
  }

  private record CellRun(TaskTable table, Map<String, Integer> requests, Map<String, Integer> duplicates, int breakerStops) {}

  /** What the task runner saw of one task; the services' records complete it. */
  private record Seen(boolean accepted, boolean escalated, List<String> answers, long latencyNanos, int attempts, int calls,
      boolean degraded, long firstFailureNanos) {}

  private CellRun runCell(long scheduleSeed, LiveScenario scenario, Strategy strategy) throws IOException, InterruptedException {
    FaultPlan faults = new FaultPlan(scheduleSeed, scenario.faultRate(), scenario.burstShare(), BURST_WINDOW_TASKS, LiveServices.TABLE16);
    // The verifiers err at the plan's rates, with draws that depend on the schedule, not on the strategy.
    VerifierNoise n = plan.verifierNoise();
    VerifierNoise.use(new VerifierNoise(scheduleSeed, n.detectionSemantic(), n.detectionTool(), n.falseAlarm()));
    ExecutorService pool = Executors.newFixedThreadPool(plan.concurrency(), r -> {
      Thread t = new Thread(r, "hfr-bench-live-task");
      t.setDaemon(true);
      return t;
    });
    AtomicInteger breakerStops = new AtomicInteger();
    DecisionSink countBreakerStops = event -> {
      if (event.reason() == Reason.CIRCUIT_OPEN) {
        breakerStops.incrementAndGet();
      }
    };
    try (LiveServices services = LiveServices.start(faults, plan.clientTimeoutMillis() + HOLD_BEYOND_TIMEOUT_MILLIS);
        InMemoryLedger ledger = new InMemoryLedger();
        Hfr hfr = Hfr.builder()
            .ledger(ledger)
            .seed(scheduleSeed ^ strategy.ordinal())
            .meterRegistry(new SimpleMeterRegistry())
            .decisionSink(countBreakerStops)
            .escalationHandler(StrategyConfigurations.escalates(strategy) ? evidence -> { } : evidence -> {
              throw new IllegalStateException("this strategy has no human to escalate to");
            })
            .features(StrategyConfigurations.features(strategy))
            .build()) {
      ToolHttp http = new ToolHttp(Duration.ofMillis(plan.clientTimeoutMillis()));
      LiveTask agent = new LiveTask(
          ModelTools_Recovering.create(hfr, http, services.modelUri()),
          SearchTools_Recovering.create(hfr, http, services.searchUri()),
          OrderTools_Recovering.create(hfr, http, services.orderUri()),
          PaymentTools_Recovering.create(hfr, http, services.paymentUri()),
          EmailTools_Recovering.create(hfr, http, services.emailUri()));
      List<Future<Seen>> futures = new ArrayList<>();
      for (int i = 0; i < plan.tasksPerCell(); i++) {
        int task = i;
        futures.add(pool.submit(() -> runTask(hfr, agent, strategy, scenario, task)));
      }
      TaskTable table = new TaskTable(plan.tasksPerCell());
      for (int i = 0; i < futures.size(); i++) {
        Seen seen = get(futures.get(i));
        table.add(judge(services, i, seen, plan));
      }
      Map<String, Integer> requests = new LinkedHashMap<>();
      requests.put("model", services.models().requests());
      requests.put("search", services.search().requests());
      requests.put("orders", services.orders().requests());
      requests.put("payments", services.payments().requests());
      requests.put("email", services.emails().requests());
      Map<String, Integer> duplicates = new LinkedHashMap<>();
      duplicates.put("orders", services.orders().duplicates());
      duplicates.put("payments", services.payments().duplicates());
      duplicates.put("email", services.emails().duplicates());
      return new CellRun(table, requests, duplicates, breakerStops.get());
    } finally {
      pool.shutdownNow();
    }
  }

  private Seen runTask(Hfr hfr, LiveTask agent, Strategy strategy, LiveScenario scenario, int task) {
    long start = System.nanoTime();
    boolean accepted = false;
    boolean escalated = false;
    List<String> answers = List.of();
    TaskReport report;
    TaskSpec spec = TaskSpec.builder("live", scenario.name() + "/" + strategy.name() + "/" + task)
        .criticality(Criticality.Level.MEDIUM).deadline(Duration.ofSeconds(30)).build();
    FailureClock.start();
    try (TaskScope scope = hfr.openTask(spec)) {
      try {
        answers = agent.run(task);
        accepted = true;
      } catch (ToolCallException e) {
        escalated = e.outcome().status() == ToolOutcome.Status.ESCALATED;
      } catch (RuntimeException e) {
        // the agent's own code failed on an answer it should not have been given (e.g. no results)
        accepted = false;
      }
      report = scope.report();
    }
    long end = System.nanoTime();
    long firstFailure = FailureClock.stop();
    progress.advance(1);
    return new Seen(accepted, escalated, answers, end - start, report.attempts(), report.calls(), report.degraded() > 0,
        firstFailure < 0 ? -1 : end - firstFailure);
  }

  /**
   * Completes what the task runner saw with what the services know. An escalated task also pays the
   * plan's escalation cost and waits its escalation latency — added to its latency, not slept, so that a
   * human's ten seconds do not hold a benchmark thread.
   */
  private static TaskResult judge(LiveServices services, int task, Seen seen, LivePlan plan) {
    String ref = LiveTask.ref(task);
    int orders = services.orders().effects(ref);
    int payments = services.payments().effects(ref);
    int emails = services.emails().effects(ref);
    int duplicates = Math.max(0, orders - 1) + Math.max(0, payments - 1) + Math.max(0, emails - 1);
    boolean wrongAnswer = seen.answers().stream().anyMatch(services::wasWrong);
    boolean success = seen.accepted() && !wrongAnswer && orders == 1 && payments == 1 && emails == 1;
    boolean recovered = seen.firstFailureNanos() >= 0 && (seen.accepted() || seen.escalated());
    long escalationNanos = seen.escalated() ? Math.round(plan.escalationSeconds() * 1e9) : 0;
    double cost = services.billed(task) + (seen.escalated() ? plan.escalationCost() : 0);
    long recovery = recovered ? seen.firstFailureNanos() + escalationNanos : -1;
    return new TaskResult(success, seen.escalated(), seen.accepted(), duplicates, cost, seen.latencyNanos() + escalationNanos,
        seen.attempts(), Math.max(1, seen.calls()), seen.degraded(), recovery, -1, escalationNanos);
  }

  private static <T> T get(Future<T> f) throws InterruptedException {
    try {
      return f.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("a live task crashed the runner", e.getCause());
    }
  }
}
