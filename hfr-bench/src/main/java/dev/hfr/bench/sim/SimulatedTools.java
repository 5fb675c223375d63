package dev.hfr.bench.sim;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.annotations.VerifyLevel;
import dev.hfr.bench.workload.StepKind;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.RetrySpec;
import dev.hfr.runtime.ToolDescriptor;
import dev.hfr.runtime.verify.Verdict;
import dev.hfr.runtime.verify.Verifier;
import java.util.EnumMap;
import java.util.Map;

/**
 * The descriptors of the simulated model and tools — what the annotation processor would generate for
 * them: the model (R0, verified, degrading to the backup model at L2 and the cheap model at L3), the read
 * tool (R0, verified, degrading to the alternative tool at L2 and the cache at L4) and the write tool (R1,
 * idempotent, keyed, verified; degrading to an equivalent alternative tool at L2 when the write model has
 * that ladder, never to the cache; with a reconcile and a compensate method when the write model says the
 * tool can be looked up and undone). Retries: 1 + the per-step budget of Table B1, full jitter
 * from its base to its cap, on T1, T2 and T3. The task's criticality comes from its {@code TaskSpec}.
 */
public final class SimulatedTools {

  // Verdicts are immutable values: one of each serves every verification of the run.
  private static final Verdict ACCEPTED = Verdict.accept();
  private static final Verdict REJECTED = Verdict.reject("semantic_mismatch");

  private final Map<StepKind, ToolDescriptor> descriptors = new EnumMap<>(StepKind.class);

  /** The descriptors of a run in {@code world}; their verifier notes rejections in the running task. */
  public SimulatedTools(SimulatedWorld world) {
    WorkloadParameters p = world.params();
    RetrySpec retry = RetrySpec.of(1 + p.retryBudgetPerStep(), Math.round(p.backoffBaseSeconds() * 1000),
        Math.round(p.backoffCapSeconds() * 1000), Fault.T1, Fault.T2, Fault.T3);
    Verifier<SimResult> verifier = result -> {
      if (result.verifierRejects()) {
        world.current().failureSeen(world.time().nanoTime());
        world.breakdown().attemptFailed(Fault.V1);
        return REJECTED;
      }
      return ACCEPTED;
    };
    descriptors.put(StepKind.MODEL, ToolDescriptor.builder("dev.hfr.bench.sim.Model", "complete", Risk.R0)
        .parameters("task", "step").retry(retry).criticality(Criticality.Level.LOW).verify(VerifyLevel.V1, verifier)
        .degradeTo("completeWithBackup", DegradeLevel.L2, Risk.R0).degradeTo("completeWithCheap", DegradeLevel.L3, Risk.R0)
        .build());
    descriptors.put(StepKind.READ_TOOL, ToolDescriptor.builder("dev.hfr.bench.sim.ReadTool", "read", Risk.R0)
        .parameters("task", "step").retry(retry).criticality(Criticality.Level.LOW).verify(VerifyLevel.V1, verifier)
        .degradeTo("readAlternative", DegradeLevel.L2, Risk.R0).degradeTo("readCache", DegradeLevel.L4, Risk.R0)
        .build());
    ToolDescriptor.Builder write = ToolDescriptor.builder("dev.hfr.bench.sim.WriteTool", "write", Risk.R1)
        .parameters("idempotencyKey", "task", "step").idempotencyKeyParameter(0).retry(retry)
        .criticality(Criticality.Level.LOW).verify(VerifyLevel.V1, verifier);
    if (p.writeModel().writeLadder()) {
      write.degradeTo("writeAlternative", DegradeLevel.L2, Risk.R1);
    }
    if (p.writeModel().writesReconcilable()) {
      write.reconcile("findWrite").compensate("undoWrite");
    }
    descriptors.put(StepKind.WRITE_TOOL, write.build());
  }

  public ToolDescriptor descriptor(StepKind kind) {
    return descriptors.get(kind);
  }
}
