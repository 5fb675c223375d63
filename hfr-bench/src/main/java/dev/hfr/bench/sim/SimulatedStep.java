package dev.hfr.bench.sim;

import dev.hfr.annotations.Fault;
import dev.hfr.bench.workload.Draws;
import dev.hfr.bench.workload.StepKind;
import dev.hfr.bench.workload.Tier;
import dev.hfr.bench.workload.WorkloadParameters;
import dev.hfr.runtime.ToolInvocation;
import dev.hfr.runtime.degrade.Compressible;
import java.util.List;
import java.util.Optional;

/**
 * One logical step of a simulated task, as the engine sees it: a hand-written {@link ToolInvocation}
 * whose attempts draw their outcome from the run's counter-based random numbers. A fault is thrown the
 * way a real client would throw it ({@link FaultSignals}), so the real classifier classifies it; a write
 * counts its committed effects in the task's state (before or after its result is judged, as the
 * {@link dev.hfr.bench.workload.WriteModel} says); the degradation rungs are the backup and cheap models,
 * the alternative tool and the cache, or for a write the alternative tool alone (when the write model has
 * a ladder); a model step's context can be compressed once after a
 * context overflow (the overflow itself is not sticky: the next attempt draws afresh).
 */
public final class SimulatedStep extends ToolInvocation<SimResult> implements Compressible {

  private static final long PURPOSE_FAULT = 21;
  private static final long PURPOSE_FAULT_CLASS = 22;
  private static final long PURPOSE_STICKY = 23;
  private static final long PURPOSE_INCIDENT = 24;
  private static final long PURPOSE_COMMIT = 25;
  private static final long PURPOSE_CORRECT = 26;
  private static final long PURPOSE_VERIFIER = 27;

  private final SimulatedWorld world;
  private final TaskState task;
  private final int step;
  private final StepKind kind;

  public SimulatedStep(SimulatedWorld world, TaskState task, int step) {
    this.world = world;
    this.task = task;
    this.step = step;
    this.kind = task.plan().steps().get(step);
  }

  @Override
  public SimResult proceed(String idempotencyKey) throws Exception {
    return attempt(0, idempotencyKey);
  }

  @Override
  public SimResult degrade(int index) throws Exception {
    // A write's only rung is the equivalent alternative tool (never the cache), when the write model has it.
    int rungs = kind == StepKind.WRITE_TOOL ? (world.params().writeModel().writeLadder() ? 1 : 0) : TaskState.TIERS - 1;
    if (index < 0 || index >= rungs) {
      throw new IndexOutOfBoundsException("no degradation rung " + index + " for a " + kind + " step");
    }
    return attempt(index + 1, null);
  }

  /**
   * The write tool's lookup by the step's business id: the write in place, if an effect of it is (its
   * latest result), else empty. Takes one primary-tool call's latency and cost.
   */
  @Override
  public Optional<SimResult> reconcile() {
    sideCall();
    if (!task.effectInPlace(step)) {
      return Optional.empty();
    }
    // An effect committed by an attempt whose answer was lost (a timeout) has no answer of its own: the
    // service's record of it is taken as the write done right.
    SimResult last = task.lastWriteResult(step);
    return Optional.of(last != null ? last : new SimResult(0, true, false));
  }

  /** The write tool's undo: one effect of the step's write is taken back. Takes one primary-tool call's latency and cost. */
  @Override
  public void compensate() {
    sideCall();
    task.compensate(step);
  }

  private void sideCall() {
    Tier t = world.params().tiers(kind).get(0);
    world.time().advance(t.latencyNanos());
    task.addAttemptTime(t.latencyNanos());
    task.addCost(t.cost());
  }

  /** A model step's context can be summarised once; tools have no context to shrink. */
  @Override
  public boolean compressContext(int round) {
    return kind == StepKind.MODEL && round == 0;
  }

  @Override
  public int argumentCount() {
    return kind == StepKind.WRITE_TOOL ? 3 : 2;
  }

  @Override
  public Object argument(int index) {
    int offset = kind == StepKind.WRITE_TOOL ? 1 : 0;
    if (kind == StepKind.WRITE_TOOL && index == 0) {
      return null; // the @IdempotencyKey parameter: the engine supplies the key
    }
    return switch (index - offset) {
      case 0 -> task.plan().index();
      case 1 -> step;
      default -> throw new IndexOutOfBoundsException("argument " + index);
    };
  }

  private SimResult attempt(int tier, String idempotencyKey) throws Exception {
    WorkloadParameters p = world.params();
    Tier t = p.tiers(kind).get(tier);
    int n = task.nextAttempt(step, tier);
    world.breakdown().attempt();
    Fault fault = drawFault(p, tier, n);
    long now;
    if (fault != null) {
      world.breakdown().attemptFailed(fault);
      boolean timeout = fault == Fault.T3;
      long spent = Math.round(t.latencyNanos() * (timeout ? p.timeoutLatencyFactor() : p.fastFailureLatencyFactor()));
      world.time().advance(spent);
      task.addAttemptTime(spent);
      if (fault == Fault.T1 || timeout) {
        task.addCost(t.cost()); // the call reached the model or tool and was billed
      }
      if (timeout && kind == StepKind.WRITE_TOOL && draw(tier, n, PURPOSE_COMMIT) < p.writeCommitsBeforeTimeout()) {
        task.commit(step, idempotencyKey); // committed, then the response was lost
      }
      now = world.time().nanoTime();
      task.failureSeen(now);
      throw FaultSignals.exception(fault, kind, p);
    }
    world.time().advance(t.latencyNanos());
    task.addAttemptTime(t.latencyNanos());
    task.addCost(t.cost());
    double penalty = tier == 0 ? 0 : tier * p.degradedQualityPenalty().get(task.plan().criticality());
    boolean correct = draw(tier, n, PURPOSE_CORRECT) < t.success() - penalty;
    double detection = kind == StepKind.MODEL ? p.verifierDetectionSemantic() : p.verifierDetectionTool();
    double v = draw(tier, n, PURPOSE_VERIFIER);
    boolean rejects = correct ? v < p.verifierFalseAlarm() : v < detection;
    // The write model decides whether a write the verifier rejects had already taken effect.
    SimResult result = new SimResult(tier, correct, rejects);
    if (kind == StepKind.WRITE_TOOL) {
      task.lastWriteResult(step, result);
      if (p.writeModel().rejectedWritesCommit() || !(rejects && world.verifies())) {
        task.commit(step, idempotencyKey);
      }
    }
    return result;
  }

  private Fault drawFault(WorkloadParameters p, int tier, int n) {
    Fault sticky = task.stickyFault(step, tier);
    if (sticky != null) {
      if (draw(tier, n, PURPOSE_STICKY) < p.stickiness()) {
        return sticky;
      }
      task.stickyFault(step, tier, null);
    }
    boolean incident = tier == 0 && (kind == StepKind.MODEL ? world.providerIncidentNow() : world.toolIncidentNow());
    if (incident && draw(tier, n, PURPOSE_INCIDENT) < world.incidents().failureProbability()) {
      return Fault.T1; // the provider or tool answers 503 for the length of the incident
    }
    if (draw(tier, n, PURPOSE_FAULT) >= p.pFault()) {
      return null;
    }
    Fault fault = world.pickFault(kind, draw(tier, n, PURPOSE_FAULT_CLASS));
    if (isNonRetryable(fault)) {
      task.stickyFault(step, tier, fault);
    }
    return fault;
  }

  /** Overload, missing tool, permanent input and safety refusals persist within a step (§6.2). */
  static boolean isNonRetryable(Fault fault) {
    return fault == Fault.T4 || fault == Fault.T5 || fault == Fault.T7 || fault == Fault.T8;
  }

  private double draw(int tier, int attempt, long purpose) {
    return Draws.uniform(world.seed(), task.plan().index(), step, tier, attempt, purpose);
  }

  /** The step's kind. */
  public StepKind kind() {
    return kind;
  }

  /** The tiers of this step, primary first. */
  public List<Tier> tiers() {
    return world.params().tiers(kind);
  }
}
