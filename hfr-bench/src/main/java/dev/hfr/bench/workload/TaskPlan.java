package dev.hfr.bench.workload;

import dev.hfr.annotations.Criticality;
import java.util.List;

/**
 * One simulated task: its index in the run, its criticality and the kinds of its logical steps.
 */
public record TaskPlan(int index, Criticality.Level criticality, List<StepKind> steps) {

  public TaskPlan {
    steps = List.copyOf(steps);
  }

  public int stepCount() {
    return steps.size();
  }
}
