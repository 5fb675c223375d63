package dev.hfr.runtime.approval;

import dev.hfr.annotations.Risk;
import java.util.Objects;

/**
 * A call waiting for approval. Arguments appear as a hash; an approver that needs to see them gets them
 * from the task owner, not from the engine's records.
 *
 * @param tenant the task's tenant
 * @param taskId the task's id
 * @param step the call's logical step
 * @param tool the tool's name
 * @param risk the tool's side-effect risk
 * @param argsHash SHA-256 of the canonical arguments
 */
public record ApprovalRequest(String tenant, String taskId, long step, String tool, Risk risk, String argsHash) {
  public ApprovalRequest {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(risk, "risk");
  }
}
