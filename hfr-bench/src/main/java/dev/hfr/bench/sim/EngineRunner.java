package dev.hfr.bench.sim;

import dev.hfr.bench.metrics.Breakdown;
import dev.hfr.bench.metrics.TaskResult;
import dev.hfr.bench.metrics.TaskTable;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.strategy.StrategyConfigurations;
import dev.hfr.bench.workload.Draws;
import dev.hfr.bench.workload.StepKind;
import dev.hfr.bench.workload.TaskPlan;
import dev.hfr.bench.workload.WorkloadGenerator;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.HfrFeatures;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.TaskLimits;
import dev.hfr.runtime.escalate.EscalationHandler;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Duration;
import java.util.function.LongConsumer;

/**
 * Runs simulated tasks through the real engine: one {@link Hfr} per (strategy, seed) on the world's
 * virtual clock, with an in-memory ledger, no decision log and a meter registry that records nothing
 * (a composite with no registries) — the engine's decisions are the same, only the bookkeeping the
 * simulation does not read is skipped. Tasks run in order; the world notes what the tools did.
 */
public final class EngineRunner implements StrategyRunner {

  private static final String TENANT = "bench";
  private static final int PROGRESS_BATCH = 250;

  private final boolean traceDuplicates;

  /** A runner that notes nothing beyond the results. */
  public EngineRunner() {
    this(false);
  }

  private EngineRunner(boolean traceDuplicates) {
    this.traceDuplicates = traceDuplicates;
  }

  @Override
  public StrategyRunner tracingDuplicates() {
    return new EngineRunner(true);
  }

  /** The refusal of a strategy without a human; thrown for many thousands of calls, so without a stack trace. */
  private static final class NoEscalationPath extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NoEscalationPath() {
      super("this strategy has no human to escalate to");
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
      return this;
    }
  }

  @Override
  @SuppressWarnings("try") // the open scope binds each task to this thread; the body need not name it
  public TaskTable run(Strategy strategy, WorkloadParameters params, long seed, int tasks, LongConsumer tasksDone) {
    HfrFeatures features = StrategyConfigurations.features(strategy);
    SimulatedWorld world = new SimulatedWorld(params, seed, features.verification());
    SimulatedTools tools = new SimulatedTools(world);
    WorkloadGenerator generator = new WorkloadGenerator(params, seed);
    TaskLimits limits = TaskLimits.builder().maxRetries(StrategyConfigurations.taskRetryBudget(strategy, params.retryBudgetPerTask())).build();
    // A baseline's escalation: nobody is there, so the engine ends the call as failed (escalation_failed).
    EscalationHandler escalation = StrategyConfigurations.escalates(strategy) ? world::escalateCurrent : evidence -> {
      world.escalationRefused(evidence);
      throw new NoEscalationPath();
    };
    Duration deadline = Duration.ofMillis(Math.round(params.taskDeadlineSeconds() * 1000));
    TaskTable table = new TaskTable(tasks);
    WritePathTracer tracer = traceDuplicates ? new WritePathTracer() : null;
    try (InMemoryLedger ledger = new InMemoryLedger(world.time());
        Hfr hfr = Hfr.builder()
            .clock(world.time())
            .sleeper(world.time())
            .seed(Draws.derive(seed, strategy.ordinal()))
            .ledger(ledger)
            .meterRegistry(new CompositeMeterRegistry())
            .decisionSink(tracer != null ? tracer : DecisionSink.discarding())
            .escalationHandler(escalation)
            .features(features)
            .build()) {
      int pending = 0;
      for (int i = 0; i < tasks; i++) {
        TaskPlan plan = generator.task(i);
        TaskState task = world.begin(plan);
        boolean accepted = true;
        Breakdown.Ending ending = null;
        TaskSpec spec = TaskSpec.builder(TENANT, "task-" + i).criticality(plan.criticality()).deadline(deadline).limits(limits).build();
        try (TaskScope scope = hfr.openTask(spec)) {
          for (int s = 0; s < plan.stepCount(); s++) {
            task.stepStarted();
            try {
              SimResult r = hfr.execute(tools.descriptor(plan.steps().get(s)), new SimulatedStep(world, task, s));
              task.stepAccepted(world.time().nanoTime(), s, r);
              world.breakdown().accepted(r.tier(), r.correct());
            } catch (ToolCallException e) {
              accepted = false;
              ending = ending(task, plan.steps().get(s), e.outcome());
              break;
            }
          }
        }
        if (ending == null && task.wrongStep() >= 0) {
          ending = new Breakdown.Ending(Breakdown.Outcome.WRONG_RESULT_ACCEPTED, plan.steps().get(task.wrongStep()).name(), "-",
              "-", plan.criticality().name());
        }
        if (ending != null) {
          world.breakdown().ended(ending);
        }
        TaskResult result = task.finish(accepted && !task.isEscalated(), world.time().nanoTime());
        if (tracer != null) {
          if (result.duplicates() > 0) {
            world.breakdown().duplicatePath(tracer.path());
          }
          tracer.clear();
        }
        table.add(result);
        if (++pending == PROGRESS_BATCH) {
          tasksDone.accept(pending);
          pending = 0;
        }
      }
      tasksDone.accept(pending);
    }
    table.breakdown().merge(world.breakdown());
    return table;
  }

  /**
   * How a task whose step ended in {@code outcome} ended: escalated (or refused an escalation) with the
   * engine's evidence — its fault class and reason, not the handler's {@code escalation_failed} — or failed
   * with the outcome's.
   */
  private static Breakdown.Ending ending(TaskState task, StepKind step, ToolOutcome outcome) {
    EvidenceBundle evidence = task.escalation();
    String criticality = task.plan().criticality().name();
    if (evidence != null) {
      return new Breakdown.Ending(task.isEscalated() ? Breakdown.Outcome.ESCALATED : Breakdown.Outcome.NO_ESCALATION_PATH,
          step.name(), evidence.fault() == null ? "-" : evidence.fault().name(), evidence.reason().code(), criticality);
    }
    return new Breakdown.Ending(Breakdown.Outcome.FAILED, step.name(),
        outcome.errorType() == null ? "-" : outcome.errorType().name(), outcome.reason(), criticality);
  }
}
