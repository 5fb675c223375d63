package dev.hfr.runtime.inbox;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * One thing that waits (or waited) for a person. Arguments appear only as a hash and a redacted preview.
 *
 * @param id the item's id (stable; what the answer names)
 * @param kind an escalation or an approval request
 * @param state where the item is
 * @param tenant the task's tenant
 * @param taskId the task (conversation) the call ran in
 * @param tool the tool's name
 * @param risk the tool's side-effect risk ({@code R0}..{@code R3})
 * @param reason why the engine asked (the decision's reason code, e.g. {@code timeout_unknown_state})
 * @param ledgerKey the write's idempotency key, or {@code null} for a call without one
 * @param argsHash SHA-256 of the canonical arguments, or {@code null}
 * @param argsPreview the arguments with personal data redacted (the telemetry's PII rules), or {@code ""}
 * @param evidence the evidence bundle as JSON (decisions, fault, attempts, suggestion)
 * @param createdAt when the item was filed
 * @param expiresAt when an approval request or approval expires; {@code null} for escalations
 * @param answer the person's answer, or {@code null} while none
 */
public record InboxItem(
    String id,
    ItemKind kind,
    ItemState state,
    String tenant,
    String taskId,
    String tool,
    String risk,
    String reason,
    String ledgerKey,
    String argsHash,
    String argsPreview,
    String evidence,
    Instant createdAt,
    Instant expiresAt,
    PersonAnswer answer) {

  public InboxItem {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(reason, "reason");
    Objects.requireNonNull(createdAt, "createdAt");
    argsPreview = argsPreview == null ? "" : argsPreview;
    evidence = evidence == null ? "{}" : evidence;
  }

  /** How long the item has waited at {@code now}. */
  public Duration age(Instant now) {
    return Duration.between(createdAt, now);
  }

  /** Whether an approval request or approval is past its expiry at {@code now}. */
  public boolean expiredAt(Instant now) {
    return expiresAt != null && !now.isBefore(expiresAt);
  }

  /** This item in {@code newState} with {@code newAnswer} and {@code newExpiry}. */
  public InboxItem with(ItemState newState, PersonAnswer newAnswer, Instant newExpiry) {
    return new InboxItem(id, kind, newState, tenant, taskId, tool, risk, reason, ledgerKey, argsHash, argsPreview,
        evidence, createdAt, newExpiry, newAnswer);
  }
}
