package dev.hfr.bench.workload;

import dev.hfr.annotations.Criticality;
import java.util.List;

/**
 * Draws the tasks of a run from the workload parameters. Task {@code i} of seed {@code s} is the same
 * task under every strategy and on every run.
 */
public final class WorkloadGenerator {

  private static final long PURPOSE_STEPS = 1;
  private static final long PURPOSE_CRITICALITY = 2;
  private static final long PURPOSE_KIND = 3;
  private static final Criticality.Level[] CRITICALITIES = Criticality.Level.values();
  private static final StepKind[] KINDS = StepKind.values();

  private final WorkloadParameters params;
  private final long seed;
  private final double[] stepWeights;
  private final double[] criticalityWeights;
  private final double[] kindWeights;

  public WorkloadGenerator(WorkloadParameters params, long seed) {
    this.params = params;
    this.seed = seed;
    this.stepWeights = params.stepCountWeights();
    this.criticalityWeights = new double[] {
        params.criticalityMix().get(Criticality.Level.LOW),
        params.criticalityMix().get(Criticality.Level.MEDIUM),
        params.criticalityMix().get(Criticality.Level.HIGH)};
    this.kindWeights = new double[] {
        params.stepKindMix().get(StepKind.MODEL),
        params.stepKindMix().get(StepKind.READ_TOOL),
        params.stepKindMix().get(StepKind.WRITE_TOOL)};
  }

  /** The task at {@code index}. */
  public TaskPlan task(int index) {
    int steps = params.stepsMin() + Draws.pick(stepWeights, Draws.uniform(seed, index, 0, 0, 0, PURPOSE_STEPS));
    Criticality.Level criticality =
        CRITICALITIES[Draws.pick(criticalityWeights, Draws.uniform(seed, index, 0, 0, 0, PURPOSE_CRITICALITY))];
    StepKind[] kinds = new StepKind[steps];
    for (int s = 0; s < steps; s++) {
      kinds[s] = KINDS[Draws.pick(kindWeights, Draws.uniform(seed, index, s, 0, 0, PURPOSE_KIND))];
    }
    return new TaskPlan(index, criticality, List.of(kinds));
  }
}
