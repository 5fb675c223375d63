package dev.hfr.runtime.internal.model;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.model.ModelCallFailedException;
import dev.hfr.runtime.model.ModelDecision;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Writes the decisions of the adapters' model ladders to a {@link DecisionSink} — normally the engine's — as
 * {@link DecisionEvent}s next to the tool decisions, so one log tells the whole story of a task. A model decision is
 * recorded as a decision about the tool {@code model:<rung>}, of risk R0 (a model call reads), at step 0 (model calls
 * take no step of the task), in the tenant and task of the caller's open {@link TaskScope} ({@value Hfr#DEFAULT_TENANT}
 * and no task id outside one). Accepted answers are not recorded, as the engine records no accepted call; every other
 * action is. Each model call that ends inside a task is also counted in that task's report, like a tool call
 * ({@link #outcome}). A failing sink, task or task lookup loses the event or the count, never the call. Given the
 * engine ({@link Escalations}), the ladder's escalations reach it with their evidence ({@link #escalate}) and are
 * checkpointed in the caller's task as the engine's own are.
 */
public final class ModelDecisionLog {

  /** Records nothing and counts nothing. */
  public static final ModelDecisionLog NONE = new ModelDecisionLog(DecisionSink.discarding(), () -> null, Clock.system());

  private static final String MODE = "enforce";

  private final DecisionSink sink;
  private final Supplier<TaskScope> currentTask;
  private final Clock clock;
  private final Escalations escalations;

  /** Where the ladder's escalations go: the engine's {@link Hfr#escalate(TaskScope, EvidenceBundle)}. */
  @FunctionalInterface
  public interface Escalations {
    /**
     * @param task the caller's task, or {@code null} outside one
     * @throws Exception what the escalation handler threw
     */
    void escalate(TaskScope task, EvidenceBundle evidence) throws Exception;
  }

  /**
   * @param sink where the decisions go
   * @param currentTask the caller's open task, or {@code null} outside one
   * @param clock the events' timestamps
   */
  public ModelDecisionLog(DecisionSink sink, Supplier<TaskScope> currentTask, Clock clock) {
    this(sink, currentTask, clock, null);
  }

  /**
   * @param sink where the decisions go
   * @param currentTask the caller's open task, or {@code null} outside one
   * @param clock the events' timestamps
   * @param escalations where the ladder's escalations go with their evidence (the engine, which checkpoints them in
   *     the caller's task first), or {@code null}
   */
  public ModelDecisionLog(DecisionSink sink, Supplier<TaskScope> currentTask, Clock clock, Escalations escalations) {
    this.sink = Objects.requireNonNull(sink, "sink");
    this.currentTask = Objects.requireNonNull(currentTask, "currentTask");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.escalations = escalations;
  }

  /**
   * This log with the caller's task looked up now, on the calling thread, and kept: for a call whose attempts end on
   * other threads (a streaming model's callbacks) where the task is not bound. A lookup that fails keeps this log.
   */
  public ModelDecisionLog withTaskOfCaller() {
    if (this == NONE) {
      return this;
    }
    TaskScope task;
    try {
      task = currentTask.get();
    } catch (RuntimeException e) {
      return this;
    }
    return new ModelDecisionLog(sink, () -> task, clock, escalations);
  }

  /**
   * Counts one model call that ended in the caller's open task ({@link TaskScope#recordOutcome}), as the tool
   * {@code model:<rung>} of the last decision, with as many attempts as decisions were taken (each follows one
   * attempt). Nothing outside a task.
   */
  public void outcome(List<ModelDecision> decisions, ToolOutcome.Status status, Fault fault, boolean degraded,
      DegradeLevel level, Reason reason) {
    if (decisions.isEmpty()) {
      return;
    }
    try {
      TaskScope task = currentTask.get();
      if (task != null) {
        String rung = decisions.get(decisions.size() - 1).rung();
        task.recordOutcome(new ToolOutcome("model:" + rung, status, fault, false, false, List.of(), false, degraded,
            level, decisions.size(), reason.code()));
      }
    } catch (RuntimeException e) {
      // Like a failing sink: the count is lost, never the call.
    }
  }

  /**
   * Writes {@code decision} unless it accepted an answer.
   *
   * @param reason why, in the engine's closed set of reasons
   * @param confidence the classifier's confidence (0 when nothing was classified)
   */
  public void record(ModelDecision decision, Reason reason, double confidence) {
    if ("ACCEPT".equals(decision.action()) || !sink.wantsEvents()) {
      return;
    }
    try {
      sink.record(event(decision, reason, confidence));
    } catch (Exception e) {
      // Like the engine: a failing sink loses the event, never the call.
    }
  }

  /** The decision event {@code decision} is written as: a decision about the tool {@code model:<rung>} in the caller's task. */
  public DecisionEvent event(ModelDecision decision, Reason reason, double confidence) {
    TaskScope task = taskOrNull();
    return new DecisionEvent(
        clock.epochMillis(),
        MODE,
        task == null ? Hfr.DEFAULT_TENANT : task.spec().tenant(),
        task == null ? null : task.spec().taskId(),
        0L,
        "model:" + decision.rung(),
        Risk.R0,
        decision.attempt(),
        decision.level(),
        decision.fault(),
        confidence,
        decision.rule(),
        Action.valueOf(decision.action()),
        reason,
        decision.delayMillis(),
        0L,
        -1,
        -1,
        null,
        null,
        null,
        null,
        null);
  }

  /**
   * Hands an escalation of the ladder (a refusal, or an exhausted ladder at HIGH criticality) to the engine, if this
   * log has one, with its evidence: the tool {@code model:<rung>} that answered last, risk R0, step 0, in the caller's
   * tenant and task (task id {@code ""} outside one), the call's decisions as decision events, and what a human could
   * do. The engine saves the task's escalation checkpoint, then its escalation handler hears of it.
   *
   * @param events the call's decisions as {@link #event} made them, in order
   * @throws Exception what the handler threw
   */
  public void escalate(ModelCallFailedException escalation, Criticality.Level criticality, Reason reason,
      List<DecisionEvent> events, String suggestion) throws Exception {
    if (escalations == null || events.isEmpty()) {
      return;
    }
    TaskScope task = taskOrNull();
    Throwable cause = escalation.getCause();
    escalations.escalate(task, new EvidenceBundle(
        task == null ? Hfr.DEFAULT_TENANT : task.spec().tenant(),
        task == null ? "" : task.spec().taskId(),
        0L,
        events.get(events.size() - 1).tool(),
        Risk.R0,
        criticality,
        escalation.fault(),
        reason,
        events.size(),
        null,
        null,
        null,
        cause == null ? null : cause.getClass().getName(),
        null,
        Map.of(),
        suggestion,
        events));
  }

  /** The caller's task, or {@code null} outside one or when the lookup fails (the event is kept without its task). */
  private TaskScope taskOrNull() {
    try {
      return currentTask.get();
    } catch (RuntimeException e) {
      return null;
    }
  }
}
