package dev.hfr.runtime.escalate;

import dev.hfr.annotations.Criticality;
import dev.hfr.annotations.Fault;
import dev.hfr.annotations.Risk;
import dev.hfr.runtime.action.Reason;
import dev.hfr.runtime.telemetry.DecisionEvent;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a human (or an upstream system) needs to take over a call (§5.6: task state, committed side
 * effects, failure evidence, suggested action). Arguments and results appear as hashes only.
 *
 * @param tenant the task's tenant
 * @param taskId the task's id
 * @param step the call's logical step
 * @param tool the tool's name
 * @param risk its side-effect risk
 * @param criticality its criticality
 * @param fault the F2D-9 class of the last failure, or {@code null} (a verification or quality stop)
 * @param reason why the engine escalated
 * @param attempts physical attempts made
 * @param argsHash SHA-256 of the canonical arguments
 * @param ledgerKey the write's idempotency key, or {@code null} for reads
 * @param ledgerState the write's ledger state (e.g. {@code UNKNOWN}), or {@code null}
 * @param lastException the class name of the last failure's exception, or {@code null}
 * @param verifierReason a verifier's rejection reason, or {@code null}
 * @param verifierEvidence the verifier's evidence (recorded values; verifiers never put secrets there)
 * @param suggestion what the engine would do next with a human's consent (e.g. a rung that needs one)
 * @param decisions the decisions taken on this call, in order
 */
public record EvidenceBundle(
    String tenant,
    String taskId,
    long step,
    String tool,
    Risk risk,
    Criticality.Level criticality,
    Fault fault,
    Reason reason,
    int attempts,
    String argsHash,
    String ledgerKey,
    String ledgerState,
    String lastException,
    String verifierReason,
    Map<String, String> verifierEvidence,
    String suggestion,
    List<DecisionEvent> decisions) {

  public EvidenceBundle {
    Objects.requireNonNull(tenant, "tenant");
    Objects.requireNonNull(taskId, "taskId");
    Objects.requireNonNull(tool, "tool");
    Objects.requireNonNull(reason, "reason");
    verifierEvidence = verifierEvidence == null ? Map.of() : Map.copyOf(verifierEvidence);
    decisions = List.copyOf(decisions);
  }
}
