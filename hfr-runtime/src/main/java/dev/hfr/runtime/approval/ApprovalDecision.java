package dev.hfr.runtime.approval;

import java.util.Objects;

/**
 * An approver's answer.
 *
 * @param approved whether the call may run
 * @param approver who decided (recorded in the evidence)
 * @param reason a short reason, recorded
 */
public record ApprovalDecision(boolean approved, String approver, String reason) {
  public ApprovalDecision {
    Objects.requireNonNull(approver, "approver");
    Objects.requireNonNull(reason, "reason");
  }

  public static ApprovalDecision approve(String approver) {
    return new ApprovalDecision(true, approver, "approved");
  }

  public static ApprovalDecision deny(String approver, String reason) {
    return new ApprovalDecision(false, approver, reason);
  }
}
