package dev.hfr.runtime.internal.context;

import dev.hfr.runtime.internal.access.InstalledOnce;
import dev.hfr.runtime.internal.engine.TaskState;

/**
 * The task a thread works for once the task its own open bound there was closed on another thread: {@code TaskScope}'s
 * rule (the scope open before, which only the scopes know), applied by the engine at the thread's next call and here
 * when the thread hands work over first ({@link TaskContext#saved()}), so that the work follows the task the thread's
 * own calls would join, not the closed one. {@code TaskScope}'s class initialiser installs the rule; no scope, and so
 * no such task, exists before it has run.
 */
public final class ClosedElsewhere {

  /** What {@code TaskScope}'s class hands over: its package-private rule. */
  public interface Rule {
    /**
     * The task {@code here} (the current thread's slot) works for instead of {@code closed}, which it holds, bound by
     * its open; {@code here} is given that task.
     */
    TaskState openTaskInstead(TaskContext.Slot here, TaskState closed);
  }

  private static final InstalledOnce<Rule> INSTALLED = new InstalledOnce<>("TaskScope");

  /** The rule as a constant; read first for a task a scope's open bound, so after the scope's class installed it. */
  private static final class Installed {
    static final Rule RULE = INSTALLED.get();
  }

  private ClosedElsewhere() {}

  /**
   * Called by {@code TaskScope}'s class initialiser only.
   *
   * @throws IllegalStateException if a rule was installed already
   */
  public static void install(Rule rule) {
    INSTALLED.install(rule);
  }

  /** {@link Rule#openTaskInstead}, on the current thread's slot {@code here}. */
  static TaskState openTaskInstead(TaskContext.Slot here, TaskState closed) {
    return Installed.RULE.openTaskInstead(here, closed);
  }
}
