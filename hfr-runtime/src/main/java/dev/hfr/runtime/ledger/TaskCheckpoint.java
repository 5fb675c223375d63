package dev.hfr.runtime.ledger;

import java.time.Instant;
import java.util.Objects;

/**
 * A task's checkpoint (paper §5.4): what the engine saves when a task starts, before it escalates, and when
 * it closes, so a restarted process knows which tasks were cut off and with which spec. The ledger keeps
 * the latest checkpoint per tenant and task; its writes carry the task id ({@link LedgerRecord#taskId}).
 *
 * @param tenant the task's tenant
 * @param taskId the task's id
 * @param phase where the task got to
 * @param spec the task's spec as the engine wrote it (with the configuration version it ran under), opaque
 *     to the ledger
 * @param evidence the evidence bundle of the last escalation (opaque text), or {@code null}
 * @param owner the engine that opened the task
 * @param startedAt when the task was (last) opened
 * @param updatedAt when this checkpoint was saved
 */
public record TaskCheckpoint(
    String tenant, String taskId, Phase phase, String spec, String evidence, String owner, Instant startedAt, Instant updatedAt) {

  /** Where a task got to. */
  public enum Phase {
    /** Opened and running (or cut off while running). */
    STARTED,
    /** A call escalated to a human; the task was not closed after it (or was cut off before). */
    ESCALATED,
    /** Closed by its owner: nothing to resume. */
    CLOSED;

    /** Whether a task in this phase was cut off if its owner is gone. */
    public boolean open() {
      return this != CLOSED;
    }
  }

  public TaskCheckpoint {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(phase, "phase");
    Objects.requireNonNull(spec, "spec");
    Objects.requireNonNull(owner, "owner");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
  }

  /** This checkpoint moved to {@code next}, saved at {@code at}, with {@code evidence} (kept when null). */
  public TaskCheckpoint next(Phase next, String newEvidence, Instant at) {
    return new TaskCheckpoint(tenant, taskId, next, spec, newEvidence != null ? newEvidence : evidence, owner, startedAt, at);
  }
}
