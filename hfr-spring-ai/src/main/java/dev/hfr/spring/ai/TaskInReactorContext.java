package dev.hfr.spring.ai;

import dev.hfr.runtime.internal.context.TaskContextAccessor;
import io.micrometer.context.ContextSnapshot;
import io.micrometer.context.ContextSnapshotFactory;
import org.springframework.ai.model.tool.internal.ToolCallReactiveContextHolder;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The HFR task carried by a reactive chain, under the key of the runtime's context-propagation accessor: what a
 * streaming {@code ChatClient} call hands to the tools Spring AI runs on Reactor's bounded-elastic threads. Written
 * with Micrometer's context-propagation (so Reactor's automatic propagation, where an application turned it on, binds
 * it on every operator's thread too) and read back where Spring AI makes the Reactor context visible to a tool: its
 * {@link ToolCallReactiveContextHolder}, set around each streamed round of tool calls.
 */
final class TaskInReactorContext {

  /** Only HFR's task: an application's other thread-locals are not ours to capture or to set. */
  private static final ContextSnapshotFactory TASK_ONLY = ContextSnapshotFactory.builder()
      .captureKeyPredicate(TaskContextAccessor.KEY::equals)
      .build();

  private TaskInReactorContext() {}

  /** The task bound to the current thread now, as a snapshot to write into a reactive chain's context. */
  static ContextSnapshot captureCurrent() {
    return TASK_ONLY.captureAll();
  }

  /** {@code context} with {@code snapshot}'s task in it. */
  static Context write(Context context, ContextSnapshot snapshot) {
    return snapshot.updateContext(context);
  }

  /** Whether {@code context} carries a task. */
  static boolean carriesTask(ContextView context) {
    return context.hasKey(TaskContextAccessor.KEY);
  }

  /**
   * Binds the task of the reactive chain running the current tool call (Spring AI's holder), if it carries one, until
   * the scope is closed; {@code null} when it carries none (a blocking call, whose task is bound to its thread).
   */
  static ContextSnapshot.Scope bindFromToolCall() {
    ContextView context = ToolCallReactiveContextHolder.getContext();
    return carriesTask(context) ? TASK_ONLY.setThreadLocalsFrom(context, TaskContextAccessor.KEY) : null;
  }
}
