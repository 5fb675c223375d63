package dev.hfr.runtime.internal.engine;

import dev.hfr.runtime.TaskSpec;
import dev.hfr.runtime.escalate.EvidenceBundle;
import dev.hfr.runtime.ledger.IdempotencyLedger;
import dev.hfr.runtime.ledger.LedgerRecord;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import dev.hfr.runtime.ledger.internal.LedgerRules;
import dev.hfr.runtime.telemetry.DecisionEvent;
import dev.hfr.runtime.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * A task's checkpoints in the ledger (§5.4): its start with its spec, before each escalation with the
 * evidence bundle, and its close. A task whose last checkpoint is not a close was cut off; {@code
 * Hfr.resumePending()} lists it with its unfinished writes, and opening it again ({@link #started}) hands
 * those writes to the new run ({@link ResumedWrites}).
 *
 * <p>The start is saved when the task first needs the ledger to know of it ({@link #startDue}): before its
 * first write's ledger record, or before its first escalation — a task that only reads leaves nothing to
 * resume, and costs no ledger write at open or close. A task the engine knows was cut off is checkpointed
 * at open ({@link #started}), so its close is saved even if the new run only reads.
 *
 * <p>A checkpoint that cannot be written does not fail the task: reads must keep working when the ledger
 * does not (fail-open for R0), and every write still needs its own ledger record to run at all. The task is
 * then missing from the list of cut-off tasks; the failure is logged once.
 */
public final class TaskCheckpoints {

  private static final System.Logger LOG = System.getLogger(TaskCheckpoints.class.getName());

  /** Writes nothing (idempotency switched off). */
  public static final TaskCheckpoints NONE = new TaskCheckpoints(null, "none", Clock.system(), spec -> "");

  private final IdempotencyLedger ledger;
  private final String owner;
  private final Clock clock;
  private final Function<TaskSpec, String> specText;
  private final AtomicBoolean warned = new AtomicBoolean();

  /**
   * @param ledger where the checkpoints go, or {@code null} for none
   * @param owner this engine's name, saved with each task it opens
   * @param specText a task's spec as its start checkpoint saves it (with the configuration version)
   */
  public TaskCheckpoints(IdempotencyLedger ledger, String owner, Clock clock, Function<TaskSpec, String> specText) {
    this.ledger = ledger;
    this.owner = Objects.requireNonNull(owner, "owner");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.specText = Objects.requireNonNull(specText, "specText");
  }

  /** Whether this engine saves checkpoints at all. */
  public boolean saves() {
    return ledger != null;
  }

  /** This engine's name in the checkpoints it saves. */
  public String owner() {
    return owner;
  }

  /**
   * Saves the start of {@code task} with its {@code spec}. If an earlier run of the task did not close,
   * its unfinished writes are handed to this run: the first write of each such tool that finds no record of
   * its own is reconciled before it is sent (R1: sent under the unfinished write's key).
   */
  public void started(TaskState task) {
    if (ledger == null) {
      return;
    }
    Instant now = Instant.ofEpochMilli(clock.epochMillis());
    save(task, now, now);
  }

  /**
   * Saves the start of {@code task} if it was left for later ({@link TaskState#checkpointLater()}): before its
   * first write's ledger record or its first escalation. Concurrent first writes wait for it, so each finds
   * the earlier run's unfinished writes handed over.
   */
  void startDue(TaskState task) {
    if (ledger == null || task.startState() == TaskState.START_DONE) {
      return;
    }
    // The saver holds the task's monitor (which guards its counters too) for this one ledger write, once per
    // task; a concurrent first write or a close waits on it.
    synchronized (task) {
      if (!task.moveStart(TaskState.START_DUE, TaskState.START_SAVING)) {
        return;
      }
      try {
        long nowMillis = clock.epochMillis();
        // The task opened before: its limit tracker read the clock then (without limits, the time of this save).
        long openedMillis = task.limits() == null ? nowMillis
            : nowMillis - TimeUnit.NANOSECONDS.toMillis(Math.max(0, clock.nanoTime() - task.limits().startNanos()));
        save(task, Instant.ofEpochMilli(openedMillis), Instant.ofEpochMilli(nowMillis));
      } finally {
        task.startDone();
      }
    }
  }

  private void save(TaskState task, Instant openedAt, Instant now) {
    TaskCheckpoint start = new TaskCheckpoint(task.tenant(), task.taskId(), TaskCheckpoint.Phase.STARTED,
        specText.apply(task.spec()), null, owner, openedAt, now);
    try {
      Optional<TaskCheckpoint> before = ledger.saveCheckpoint(start);
      task.checkpointed(start);
      if (before.isPresent() && before.get().phase().open()) {
        List<LedgerRecord> unfinished = ledger.unfinishedTaskRecords(task.tenant(), task.taskId());
        if (!unfinished.isEmpty()) {
          task.resumeWith(new ResumedWrites(unfinished));
        }
      }
    } catch (RuntimeException e) {
      warn("the start of task " + task.taskId(), e);
    }
  }

  /** Saves, before the escalation handler hears of it, that {@code task} escalated, with the evidence. */
  void escalated(TaskState task, EvidenceBundle evidence) {
    startDue(task);
    TaskCheckpoint current = task.checkpoint();
    if (ledger == null || current == null) {
      return; // an implicit task, or one whose start could not be saved
    }
    TaskCheckpoint next = current.next(TaskCheckpoint.Phase.ESCALATED, text(evidence), Instant.ofEpochMilli(clock.epochMillis()));
    try {
      ledger.saveCheckpoint(next);
      task.checkpointed(next);
    } catch (RuntimeException e) {
      warn("the escalation of task " + task.taskId(), e);
    }
  }

  /** Saves that {@code task} closed: nothing of it is left to resume (nothing, if its start was never saved). */
  public void closed(TaskState task) {
    if (ledger == null) {
      return;
    }
    // A task that never needed its start saved has nothing to close; a start being saved is waited for.
    if (!task.moveStart(TaskState.START_DUE, TaskState.START_DONE) && task.startState() == TaskState.START_SAVING) {
      synchronized (task) {
        // the saver holds the monitor until its start is saved
      }
    }
    TaskCheckpoint current = task.checkpoint();
    if (ledger == null || current == null) {
      return;
    }
    TaskCheckpoint next = current.next(TaskCheckpoint.Phase.CLOSED, null, Instant.ofEpochMilli(clock.epochMillis()));
    try {
      ledger.saveCheckpoint(next);
      task.checkpointed(next);
    } catch (RuntimeException e) {
      warn("the close of task " + task.taskId(), e);
    }
  }

  /** The evidence bundle as one line of text (hashes, names and codes only), cut to what a checkpoint holds. */
  static String text(EvidenceBundle e) {
    StringBuilder b = new StringBuilder(256)
        .append("step=").append(e.step())
        .append(" tool=").append(e.tool())
        .append(" risk=").append(e.risk())
        .append(" criticality=").append(e.criticality())
        .append(" fault=").append(e.fault())
        .append(" reason=").append(e.reason().code())
        .append(" attempts=").append(e.attempts())
        .append(" args=").append(e.argsHash())
        .append(" key=").append(e.ledgerKey())
        .append(" ledger_state=").append(e.ledgerState())
        .append(" exception=").append(e.lastException());
    if (e.verifierReason() != null) {
      b.append(" verifier=").append(e.verifierReason()).append(' ').append(e.verifierEvidence());
    }
    if (e.suggestion() != null) {
      b.append(" suggestion=").append(e.suggestion());
    }
    b.append(" decisions=[");
    for (DecisionEvent d : e.decisions()) {
      b.append(' ').append(d.action()).append('/').append(d.reason());
    }
    b.append(" ]");
    return b.length() <= LedgerRules.MAX_EVIDENCE ? b.toString() : b.substring(0, LedgerRules.MAX_EVIDENCE - 1) + "…";
  }

  private void warn(String what, RuntimeException e) {
    if (warned.compareAndSet(false, true)) {
      LOG.log(System.Logger.Level.WARNING, "HFR could not checkpoint " + what + " in its ledger (" + e
          + "); such tasks are not listed by resumePending() if cut off. Logged once.");
    }
  }
}
