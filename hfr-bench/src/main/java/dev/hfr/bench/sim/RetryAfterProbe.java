package dev.hfr.bench.sim;

import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.bench.strategy.Strategy;
import dev.hfr.bench.strategy.StrategyConfigurations;
import dev.hfr.bench.workload.StepKind;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolCallException;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.ledger.InMemoryLedger;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.VirtualTime;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

/**
 * Measures, on the engine itself, how long a strategy waits after a 429 that asks for the workload's
 * Retry-After: one read whose first attempt is rate limited and whose second answers, on a virtual clock
 * whose attempts take no time — so the clock's advance is the wait. The report states FixedRetry3's
 * handling of Retry-After from this measurement, not from a reading of the code.
 */
final class RetryAfterProbe {

  private RetryAfterProbe() {}

  /** Seconds {@code strategy} waited before the second attempt, or -1 if it made none. */
  static double waitSeconds(Strategy strategy, WorkloadParameters p) {
    VirtualTime time = new VirtualTime();
    RetrySpec retry = RetrySpec.of(1 + p.retryBudgetPerStep(), Math.round(p.backoffBaseSeconds() * 1000),
        Math.round(p.backoffCapSeconds() * 1000), Fault.T1, Fault.T2, Fault.T3);
    ToolDescriptor read = ToolDescriptor.builder("dev.hfr.bench.sim.Probe", "read", Risk.R0).parameters("n").retry(retry).build();
    int[] attempts = {0};
    try (InMemoryLedger ledger = new InMemoryLedger(time);
        Hfr hfr = Hfr.builder().clock(time).sleeper(time).seed(1).ledger(ledger).meterRegistry(new CompositeMeterRegistry())
            .decisionSink(DecisionSink.discarding()).features(StrategyConfigurations.features(strategy)).build()) {
      long start = time.nanoTime();
      hfr.execute(read, new ToolInvocation<String>() {
        @Override
        public String proceed(String idempotencyKey) throws Exception {
          if (attempts[0]++ == 0) {
            throw FaultSignals.exception(Fault.T2, StepKind.READ_TOOL, p);
          }
          return "answer";
        }

        @Override
        public int argumentCount() {
          return 1;
        }

        @Override
        public Object argument(int index) {
          return 0;
        }
      });
      return (time.nanoTime() - start) / 1e9;
    } catch (ToolCallException e) {
      return -1;
    }
  }
}
