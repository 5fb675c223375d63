package dev.hfr.langchain4j;

import dev.hfr.annotations.DegradeLevel;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.Hfr;
import dev.hfr.runtime.TaskScope;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.action.Action;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.telemetry.DecisionSink;
import dev.hfr.runtime.time.Clock;
import java.util.List;
import java.util.function.Supplier;

/**
 * Writes the decisions of {@link HfrChatModel} and {@link HfrStreamingChatModel} to a {@link DecisionSink}
 * — normally the one the engine was built with — as {@link DecisionEvent}s next to the tool decisions, so
 * one log tells the whole story of a task. A model decision is recorded as a decision about the tool
 * {@code model:<rung>}, of risk R0 (a model call reads), at step 0 (model calls take no step of the task),
 * in the tenant and task of the caller's open {@link TaskScope} ({@value Hfr#DEFAULT_TENANT} and no task id
 * outside one). Accepted answers are not recorded, as the engine records no accepted call; every other
 * action is. A sink that fails loses the event, never the call. Each model call that ends inside a task is
 * also counted in that task's report, like a tool call ({@link #outcome}).
 */
final class ModelDecisionLog {

  /** Records nothing. */
  static final ModelDecisionLog NONE = new ModelDecisionLog(DecisionSink.discarding(), () -> null, Clock.system());

  private static final String MODE = "enforce";

  private final DecisionSink sink;
  private final Supplier<TaskScope> currentTask;
  private final Clock clock;

  ModelDecisionLog(DecisionSink sink, Supplier<TaskScope> currentTask, Clock clock) {
    this.sink = sink;
    this.currentTask = currentTask;
    this.clock = clock;
  }

  /**
   * @param decision what was decided
   * @param reason why, in the engine's closed set of reasons
   * @param confidence the classifier's confidence (0 when nothing was classified)
   */
  /**
   * Counts one model call that ended in the caller's open task ({@link TaskScope#recordOutcome}), as the
   * tool {@code model:<rung>} of the last decision, with as many attempts as decisions were taken (each
   * follows one attempt). Nothing outside a task; a failing supplier or task loses the count, never the
   * call.
   */
  void outcome(List<ModelDecision> decisions, ToolOutcome.Status status, Fault fault, boolean degraded,
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

  void record(ModelDecision decision, Reason reason, double confidence) {
    if ("ACCEPT".equals(decision.action()) || !sink.wantsEvents()) {
      return;
    }
    TaskScope task;
    try {
      task = currentTask.get();
    } catch (RuntimeException e) {
      task = null; // the supplier cannot say: record the decision without its task rather than lose it
    }
    DecisionEvent event = new DecisionEvent(
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
    try {
      sink.record(event);
    } catch (Exception e) {
      // Like the engine: a failing sink loses the event, never the call.
    }
  }
}
