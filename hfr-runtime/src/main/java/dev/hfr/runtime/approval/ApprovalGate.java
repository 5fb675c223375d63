package dev.hfr.runtime.approval;

/**
 * Decides whether a call of a {@code requiresApproval} tool may run. It is asked before every such call,
 * degradation rungs included (approval is never bypassed). A denial — or a gate that throws — is a
 * policy refusal (T8): the call is not made, not retried, not degraded around; it is escalated.
 */
@FunctionalInterface
public interface ApprovalGate {

  /** Answers {@code request}. */
  ApprovalDecision review(ApprovalRequest request) throws Exception;

  /** The default: nobody is configured to approve, so nothing that needs approval runs. */
  static ApprovalGate denyAll() {
    return request -> ApprovalDecision.deny("nobody", "no approval gate configured");
  }
}
