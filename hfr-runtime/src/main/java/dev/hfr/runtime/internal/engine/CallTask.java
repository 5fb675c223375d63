package dev.hfr.runtime.internal.engine;

import dev.hfr.annotations.Criticality;
import dev.hfr.runtime.TaskReport;
import dev.hfr.runtime.ToolOutcome;
import dev.hfr.runtime.budget.Deadline;
import dev.hfr.runtime.budget.TaskLimitTracker;

/**
 * What a call needs of the task it runs in: its tenant and id, its limits, budget and deadline, and where its
 * outcome is counted. An explicit task ({@link TaskState}) is shared by all its calls; a call made outside any
 * scope runs in a {@link OneCallTask}, a small record of that one call.
 */
interface CallTask {

  String tenant();

  /** The task's id; a one-call task numbers itself only when first asked. */
  String taskId();

  /** The task's criticality, or {@code null} to use each tool's. */
  Criticality.Level criticality();

  /** q_min, or NaN for the configured floor of each call's criticality. */
  double qualityFloor();

  Deadline deadline();

  /** The limit tracker, or {@code null} when there is none (budgets off, or a one-call task). */
  TaskLimitTracker limits();

  /** Whether this is the one-call task of a call made outside any scope. */
  boolean implicit();

  /** The next logical step number (1, 2, ...): the call's place in the task. */
  long nextStep();

  /** The occurrence of the task's latest write of {@code tool} with these arguments, or -1 (see {@link WriteOccurrences}). */
  int latestOccurrence(String tool, String argsHash);

  /** Starts the task's write of {@code tool} with these arguments after occurrence {@code after}; returns its occurrence. */
  int startOccurrence(String tool, String argsHash, int after);

  /** What the task's writes ended with, for re-calls; {@code null} for a one-call task (it has no re-call). */
  WriteAnswers answers();

  void onCallStart(boolean highRiskCall);

  /** Counts a call that ended; {@code outcome} becomes the task's last outcome. */
  void onCallEnd(ToolOutcome outcome, boolean unverifiedSideEffect);

  /** Counts a call that ended, without an outcome object (the clean read of a call outside a scope). */
  void count(String tool, ToolOutcome.Status status, boolean wasDegraded, int callAttempts, boolean unverifiedSideEffect);

  /** The engine asks the planner to replan. */
  void requestReplan();

  /** The report so far. */
  TaskReport report();
}
