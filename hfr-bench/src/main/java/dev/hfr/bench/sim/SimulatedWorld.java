package dev.hfr.bench.sim;

import dev.hfr.annotations.Fault;
import dev.hfr.bench.metrics.Breakdown;
import dev.hfr.bench.workload.IncidentSchedule;
import dev.hfr.bench.workload.StepKind;
import dev.hfr.bench.workload.TaskPlan;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.time.VirtualTime;
import java.util.Map;

/**
 * The simulated environment of one run (one strategy, one seed): the virtual clock the engine and the
 * simulated tools share, the workload, the incident schedule, and the task running now. Tasks of a run
 * execute one after another on one thread, so the environment is deterministic; different runs have
 * separate worlds and may execute on different threads.
 */
public final class SimulatedWorld {

  private final WorkloadParameters params;
  private final long seed;
  private final VirtualTime time;
  private final IncidentSchedule incidents;
  private final boolean verifies;
  private final Breakdown breakdown = new Breakdown();
  // Each step kind's fault mix as parallel arrays, in the mix's own order: the draw walks them per fault.
  private final Fault[][] faultClasses = new Fault[StepKind.values().length][];
  private final double[][] faultWeights = new double[StepKind.values().length][];
  private TaskState current;
  private boolean providerIncident;
  private boolean toolIncident;

  /**
   * The world of one run.
   *
   * @param verifies whether the strategy verifies results: only then can a rejection keep a write from
   *     taking effect (under the paper-consistent {@link dev.hfr.bench.workload.WriteModel})
   */
  public SimulatedWorld(WorkloadParameters params, long seed, boolean verifies) {
    this.params = params;
    this.seed = seed;
    this.verifies = verifies;
    this.time = new VirtualTime();
    this.incidents = params.incidents(seed);
    for (StepKind kind : StepKind.values()) {
      Map<Fault, Double> mix = params.faultMix(kind);
      faultClasses[kind.ordinal()] = new Fault[mix.size()];
      faultWeights[kind.ordinal()] = new double[mix.size()];
      int i = 0;
      for (Map.Entry<Fault, Double> e : mix.entrySet()) {
        faultClasses[kind.ordinal()][i] = e.getKey();
        faultWeights[kind.ordinal()][i] = e.getValue();
        i++;
      }
    }
  }

  public WorkloadParameters params() {
    return params;
  }

  public long seed() {
    return seed;
  }

  /** The run's virtual clock; also the engine's clock and sleeper. */
  public VirtualTime time() {
    return time;
  }

  public IncidentSchedule incidents() {
    return incidents;
  }

  /** Whether the strategy of this run verifies results. */
  public boolean verifies() {
    return verifies;
  }

  /** What the run's attempts met and how its tasks ended. */
  public Breakdown breakdown() {
    return breakdown;
  }

  /**
   * The fault class of {@code kind}'s mix that the uniform draw {@code u} picks: the first whose
   * cumulative weight exceeds {@code u} (the last one if rounding leaves {@code u} above the total).
   */
  Fault pickFault(StepKind kind, double u) {
    Fault[] classes = faultClasses[kind.ordinal()];
    double[] weights = faultWeights[kind.ordinal()];
    double acc = 0;
    Fault last = null;
    for (int i = 0; i < classes.length; i++) {
      acc += weights[i];
      last = classes[i];
      if (u < acc) {
        return last;
      }
    }
    return last;
  }

  /** Starts {@code plan} now. */
  public TaskState begin(TaskPlan plan) {
    current = new TaskState(plan, time.nanoTime());
    providerIncident = incidents.providerIncident(plan.index());
    toolIncident = incidents.toolIncident(plan.index());
    return current;
  }

  /** The running task. */
  public TaskState current() {
    if (current == null) {
      throw new IllegalStateException("no simulated task is running");
    }
    return current;
  }

  boolean providerIncidentNow() {
    return providerIncident;
  }

  boolean toolIncidentNow() {
    return toolIncident;
  }

  /** A human takes the running task over: the escalation's latency and cost (Table B1). */
  public void escalateCurrent(EvidenceBundle evidence) {
    current().escalationAsked(evidence);
    long wait = Math.round(params.escalationLatencySeconds() * 1e9);
    time.advance(wait);
    current().escalated(params.escalationCost(), wait, time.nanoTime());
  }

  /** The engine asked to escalate the running task, but the strategy has nobody to take it over. */
  public void escalationRefused(EvidenceBundle evidence) {
    current().escalationAsked(evidence);
  }
}
