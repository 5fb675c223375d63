package dev.hfr.runtime;

import dev.hfr.runtime.ledger.LedgerState;
import dev.hfr.runtime.ledger.TaskCheckpoint;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A task another engine opened and never closed — its process died, or was killed, mid-task — as {@link
 * Hfr#resumePending()} finds it in the ledger: its spec, and the writes it left unfinished.
 *
 * <p>Resume it by opening it again with its spec, and running the task's work as the agent would:
 *
 * <pre>{@code
 * for (PendingTask p : hfr.resumePending()) {
 *   try (TaskScope task = hfr.openTask(p.spec())) {
 *     agent.run(p.taskId());            // the agent's own input for the task, looked up by its id
 *   }
 * }
 * }</pre>
 *
 * Writes the replay repeats with the same arguments find their records: a committed one is answered from
 * the ledger, an unfinished one is reconciled first. A write the replay makes with other arguments (a
 * re-plan) takes the place of an unfinished write of the same tool: an R2/R3 write is reconciled before
 * its first send, an R1 write is sent under the unfinished write's key (which the provider deduplicates).
 *
 * @param tenant the task's tenant
 * @param taskId the task's id
 * @param spec the spec it was opened with (its deadline counts again from the reopening)
 * @param phase {@code STARTED}, or {@code ESCALATED} when a call of it was handed to a human before it was
 *     cut off ({@link #escalation})
 * @param escalation the last escalation's evidence (hashes, names and codes), or {@code null}
 * @param configVersion the configuration it ran under ({@code <version>@<source>}, or {@code defaults})
 * @param configChanged whether this engine runs under another configuration (§5.4's drift check)
 * @param owner the engine that opened it
 * @param startedAt when it was opened
 * @param unfinishedWrites its writes whose outcome is not known yet (PREPARED or UNKNOWN), oldest first
 */
public record PendingTask(
    String tenant,
    String taskId,
    TaskSpec spec,
    TaskCheckpoint.Phase phase,
    String escalation,
    String configVersion,
    boolean configChanged,
    String owner,
    Instant startedAt,
    List<UnfinishedWrite> unfinishedWrites) {

  public PendingTask {
    Objects.requireNonNull(spec, "spec");
    unfinishedWrites = List.copyOf(unfinishedWrites);
  }

  /**
   * A write of the task whose outcome is not known yet.
   *
   * @param tool the tool's name
   * @param key its idempotency key (what an R1 tool received)
   * @param state {@code UNKNOWN} (or {@code PREPARED} while another live holder still leases it)
   * @param attempts attempts made under the key
   * @param createdAt when its intent was recorded
   */
  public record UnfinishedWrite(String tool, String key, LedgerState state, int attempts, Instant createdAt) {}
}
