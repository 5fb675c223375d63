package dev.hfr.bench.sim;

import dev.hfr.bench.metrics.TaskTable;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.strategy.StrategyConfigurations;
import dev.hfr.bench.workload.Draws;
import dev.hfr.bench.workload.TaskPlan;
import dev.hfr.bench.workload.WorkloadGenerator;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.budget.TaskLimits;
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

  /** A baseline's escalation: nobody is there, so the engine ends the call as failed ({@code escalation_failed}). */
  private static final dev.hfr.runtime.escalate.EscalationHandler NO_ESCALATION_PATH = evidence -> {
    throw new NoEscalationPath();
  };

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
    SimulatedWorld world = new SimulatedWorld(params, seed);
    SimulatedTools tools = new SimulatedTools(world);
    WorkloadGenerator generator = new WorkloadGenerator(params, seed);
    TaskLimits limits = TaskLimits.builder().maxRetries(params.retryBudgetPerTask()).build();
    Duration deadline = Duration.ofMillis(Math.round(params.taskDeadlineSeconds() * 1000));
    TaskTable table = new TaskTable(tasks);
    try (InMemoryLedger ledger = new InMemoryLedger(world.time());
        Hfr hfr = Hfr.builder()
            .clock(world.time())
            .sleeper(world.time())
            .seed(Draws.derive(seed, strategy.ordinal()))
            .ledger(ledger)
            .meterRegistry(new CompositeMeterRegistry())
            .decisionSink(DecisionSink.discarding())
            .escalationHandler(StrategyConfigurations.escalates(strategy) ? evidence -> world.escalateCurrent() : NO_ESCALATION_PATH)
            .features(StrategyConfigurations.features(strategy))
            .build()) {
      int pending = 0;
      for (int i = 0; i < tasks; i++) {
        TaskPlan plan = generator.task(i);
        TaskState task = world.begin(plan);
        boolean accepted = true;
        TaskSpec spec = TaskSpec.builder(TENANT, "task-" + i).criticality(plan.criticality()).deadline(deadline).limits(limits).build();
        try (TaskScope scope = hfr.openTask(spec)) {
          for (int s = 0; s < plan.stepCount(); s++) {
            task.stepStarted();
            try {
              SimResult r = hfr.execute(tools.descriptor(plan.steps().get(s)), new SimulatedStep(world, task, s));
              task.stepAccepted(world.time().nanoTime(), r);
            } catch (ToolCallException e) {
              accepted = false;
              break;
            }
          }
        }
        table.add(task.finish(accepted && !task.isEscalated(), world.time().nanoTime()));
        if (++pending == PROGRESS_BATCH) {
          tasksDone.accept(pending);
          pending = 0;
        }
      }
      tasksDone.accept(pending);
    }
    return table;
  }
}
